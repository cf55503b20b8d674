/// The values of one substitution variable as the matcher uses them: literal values in a trie
/// (so `$(region)`'s 257 codes cost two lookups per position, not 257 comparisons) and values
/// holding wildcards as small patterns of their own. Each occurrence of `$(name)` stands for
/// exactly one value (OBSERVED, spec §7); alternatives are never expanded combinatorially.
struct AlternativeSet: Sendable {
    private struct Node: Sendable {
        var children: [UInt32: Int32] = [:]
        var isEnd = false
    }

    private var nodes: [Node] = [Node()]
    private(set) var wildcardValues: [[PatternStep]] = []
    private(set) var minimumLength = Int.max

    init(values: [String], caseSensitive: Bool) {
        for value in values {
            var scalars = value.unicodeScalars.map(\.value)
            if !caseSensitive { scalars = CaseFolding.fold(scalars) }
            if scalars.contains(where: { $0 == 0x2A || $0 == 0x3F }) {
                wildcardValues.append(scalars.map { $0 == 0x2A ? .star : $0 == 0x3F ? .one : .literal($0) })
                minimumLength = min(minimumLength, scalars.filter { $0 != 0x2A }.count)
            } else {
                insert(scalars)
                minimumLength = min(minimumLength, scalars.count)
            }
        }
    }

    private mutating func insert(_ scalars: [UInt32]) {
        var node = 0
        for scalar in scalars {
            if let next = nodes[node].children[scalar] {
                node = Int(next)
            } else {
                nodes.append(Node())
                nodes[node].children[scalar] = Int32(nodes.count - 1)
                node = nodes.count - 1
            }
        }
        nodes[node].isEnd = true
    }

    /// Marks in `next` every position reachable from a position set in `current` by
    /// consuming one value of the set.
    func advance(_ current: UnsafeMutableBufferPointer<Bool>, _ text: UnsafeBufferPointer<UInt32>, into next: UnsafeMutableBufferPointer<Bool>) {
        let count = text.count
        for start in 0...count where current[start] {
            var node = 0
            if nodes[0].isEnd { next[start] = true }
            var position = start
            while position < count, let child = nodes[node].children[text[position]] {
                node = Int(child)
                position += 1
                if nodes[node].isEnd { next[position] = true }
            }
        }
        for value in wildcardValues {
            PatternEngine.advance(steps: value, sets: [], from: current, text, into: next)
        }
    }
}
