/// The values of one substitution variable as the matcher uses them: literal values in a trie
/// (so `$(region)`'s 257 codes cost two short scans per position, not 257 comparisons) and
/// values holding wildcards in a trie of steps (so `*1`, `*2` … share their `*`), advanced
/// on whole position sets. Each occurrence of `$(name)` stands for exactly one value
/// (as Apple's swcutil was observed to do); alternatives are never expanded combinatorially.
final class AlternativeSet: Sendable {
    /// Trie nodes: the children of node `n` are `childKeys[firstChild[n] ..< firstChild[n] + childCount[n]]`.
    private let firstChild: [Int32]
    private let childCount: [Int32]
    private let childKeys: [UInt32]
    private let childNodes: [Int32]
    private let isEnd: [Bool]
    /// The wildcard values' trie: node 0 is the root; node `n` consumes `wildcardSteps[n]`.
    private let wildcardSteps: [PatternStep]
    private let wildcardChildren: [[Int32]]
    private let wildcardIsEnd: [Bool]
    let hasWildcardValues: Bool
    let minimumLength: Int

    /// What one use of a variable with these values costs the matcher, in word operations per
    /// 64 characters of text: each literal value's length is walked from every position, each
    /// wildcard value's step is one pass over the position set's words. An upper bound (the
    /// trie shares prefixes); the validator warns about patterns whose sum is large.
    static func cost(of values: [String]) -> Int {
        var longestLiteral = 0
        var wildcardSteps = 0
        for value in values {
            let count = value.unicodeScalars.count
            if value.utf8.contains(where: { $0 == 0x2A || $0 == 0x3F }) {
                wildcardSteps += count
            } else {
                longestLiteral = max(longestLiteral, count)
            }
        }
        return 64 * longestLiteral + wildcardSteps
    }

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
        let wildcards = Self.buildWildcardTrie(wildcardValues)
        wildcardSteps = wildcards.steps
        wildcardChildren = wildcards.children
        wildcardIsEnd = wildcards.isEnd
        hasWildcardValues = !wildcardValues.isEmpty
        self.minimumLength = minimumLength
        let trie = Self.buildTrie(Array(Set(literals)).sorted { $0.lexicographicallyPrecedes($1) })
        firstChild = trie.firstChild
        childCount = trie.childCount
        childKeys = trie.childKeys
        childNodes = trie.childNodes
        isEnd = trie.isEnd
    }

    /// Builds the trie breadth-first from sorted values, so each node's children are contiguous.
    private static func buildTrie(_ values: [[UInt32]]) -> (
        firstChild: [Int32], childCount: [Int32], childKeys: [UInt32], childNodes: [Int32], isEnd: [Bool]
    ) {
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

    /// A trie of step sequences; siblings are found through a dictionary while building, so a
    /// variable with many values builds in linear time.
    private static func buildWildcardTrie(_ values: [[PatternStep]]) -> (
        steps: [PatternStep], children: [[Int32]], isEnd: [Bool]
    ) {
        struct Edge: Hashable {
            var parent: Int32
            var step: UInt64
        }
        var steps: [PatternStep] = [.star]
        var children: [[Int32]] = [[]]
        var isEnd = [false]
        var edges: [Edge: Int32] = [:]
        for value in values {
            var node: Int32 = 0
            for step in value {
                let key: UInt64 =
                    switch step {
                    case .literal(let scalar): UInt64(scalar)
                    case .one: 1 << 32
                    case .star: 2 << 32
                    case .alternatives: 3 << 32
                    }
                let edge = Edge(parent: node, step: key)
                if let child = edges[edge] {
                    node = child
                    continue
                }
                let child = Int32(steps.count)
                steps.append(step)
                children.append([])
                isEnd.append(false)
                children[Int(node)].append(child)
                edges[edge] = child
                node = child
            }
            isEnd[Int(node)] = true
        }
        return (steps, children, isEnd)
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
    func advance(_ current: PositionSet, _ masks: inout TextMasks) -> PositionSet {
        let text = masks.text
        var next = PositionSet(count: text.count)
        current.forEachPosition { start in
            if isEnd[0] { next.insert(start) }
            var node = 0
            var position = start
            while position < text.count, let nextNode = child(of: node, text[position]) {
                node = nextNode
                position += 1
                if isEnd[node] { next.insert(position) }
            }
        }
        guard hasWildcardValues else { return next }
        // Depth first through the wildcard trie, each node's set computed once from its
        // parent's; an empty set prunes the subtree.
        var pending: [(node: Int32, positions: PositionSet)] = [(0, current)]
        while let (node, positions) = pending.popLast() {
            for child in wildcardChildren[Int(node)] {
                let reached = PatternEngine.advance(positions, over: wildcardSteps[Int(child)], &masks)
                if reached.isEmpty { continue }
                if wildcardIsEnd[Int(child)] { next.formUnion(reached) }
                if !wildcardChildren[Int(child)].isEmpty { pending.append((child, reached)) }
            }
        }
        return next
    }
}
