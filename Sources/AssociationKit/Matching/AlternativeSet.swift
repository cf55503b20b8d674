/// The values of one substitution variable as the matcher uses them: literal values in a trie
/// (so `$(region)`'s 257 codes cost two short scans per position, not 257 comparisons) and
/// values holding wildcards as small patterns of their own. Each occurrence of `$(name)`
/// stands for exactly one value (OBSERVED, spec §7); alternatives are never expanded
/// combinatorially.
final class AlternativeSet: Sendable {
    /// Trie nodes: the children of node `n` are `childKeys[firstChild[n] ..< firstChild[n] + childCount[n]]`.
    private let firstChild: [Int32]
    private let childCount: [Int32]
    private let childKeys: [UInt32]
    private let childNodes: [Int32]
    private let isEnd: [Bool]
    let wildcardValues: [[PatternStep]]
    let minimumLength: Int

    init(values: [String], caseSensitive: Bool) {
        var literals: [[UInt32]] = []
        var wildcardValues: [[PatternStep]] = []
        var minimumLength = Int.max
        for value in values {
            var scalars = value.unicodeScalars.map(\.value)
            if !caseSensitive { scalars = CaseFolding.fold(scalars) }
            if scalars.contains(where: { $0 == 0x2A || $0 == 0x3F }) {
                wildcardValues.append(scalars.map { $0 == 0x2A ? .star : $0 == 0x3F ? .one : .literal($0) })
                minimumLength = min(minimumLength, scalars.filter { $0 != 0x2A }.count)
            } else {
                literals.append(scalars)
                minimumLength = min(minimumLength, scalars.count)
            }
        }
        self.wildcardValues = wildcardValues
        self.minimumLength = minimumLength
        let trie = Self.buildTrie(Array(Set(literals)).sorted { $0.lexicographicallyPrecedes($1) })
        firstChild = trie.firstChild
        childCount = trie.childCount
        childKeys = trie.childKeys
        childNodes = trie.childNodes
        isEnd = trie.isEnd
    }

    /// Builds the trie breadth-first from sorted values, so each node's children are contiguous.
    private static func buildTrie(_ values: [[UInt32]]) -> (firstChild: [Int32], childCount: [Int32], childKeys: [UInt32], childNodes: [Int32], isEnd: [Bool]) {
        var childKeys: [UInt32] = []
        var childNodes: [Int32] = []
        // Each queue item: the range of `values` sharing a prefix of length `depth`.
        var queue: [(range: Range<Int>, depth: Int)] = [(0..<values.count, 0)]
        var head = 0
        var isEnd = [false]
        var firstChild: [Int32] = [0]
        var childCount: [Int32] = [0]
        while head < queue.count {
            let (range, depth) = queue[head]
            let node = head
            head += 1
            var index = range.lowerBound
            if index < range.upperBound && values[index].count == depth {
                isEnd[node] = true
                index += 1
            }
            firstChild[node] = Int32(childKeys.count)
            while index < range.upperBound {
                let key = values[index][depth]
                var end = index + 1
                while end < range.upperBound && values[end][depth] == key { end += 1 }
                childKeys.append(key)
                childNodes.append(Int32(queue.count))
                queue.append((index..<end, depth + 1))
                isEnd.append(false)
                firstChild.append(0)
                childCount.append(0)
                index = end
            }
            childCount[node] = Int32(childKeys.count) - firstChild[node]
        }
        return (firstChild, childCount, childKeys, childNodes, isEnd)
    }

    @inline(__always)
    private func child(of node: Int, _ key: UInt32) -> Int? {
        let start = Int(firstChild[node])
        for index in start..<(start + Int(childCount[node])) where childKeys[index] == key {
            return Int(childNodes[index])
        }
        return nil
    }

    /// The positions reachable from each position in `current` by consuming one value.
    func advance(_ current: PositionSet, _ text: UnsafeBufferPointer<UInt32>) -> PositionSet {
        var next = PositionSet(count: text.count)
        current.forEach { start in
            if isEnd[0] { next.insert(start) }
            var node = 0
            var position = start
            while position < text.count, let nextNode = child(of: node, text[position]) {
                node = nextNode
                position += 1
                if isEnd[node] { next.insert(position) }
            }
        }
        for value in wildcardValues {
            next.formUnion(PatternEngine.advance(value, sets: [], from: current, text))
        }
        return next
    }
}
