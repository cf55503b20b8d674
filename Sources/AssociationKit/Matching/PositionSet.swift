/// A set of positions `0...count` in a text: the state of the position-set matcher. Texts up
/// to 63 characters (nearly every URL part) fit in one machine word, so a step of the
/// matcher is a few bit operations and allocates nothing; longer texts use an array of words.
struct PositionSet {
    private var small: UInt64 = 0
    private var large: [UInt64]
    let count: Int

    init(count: Int) {
        self.count = count
        large = count < 64 ? [] : [UInt64](repeating: 0, count: count / 64 + 1)
    }

    var isEmpty: Bool { count < 64 ? small == 0 : large.allSatisfy { $0 == 0 } }

    @inline(__always)
    func contains(_ position: Int) -> Bool {
        count < 64 ? small & (1 << UInt64(position)) != 0 : large[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    @inline(__always)
    mutating func insert(_ position: Int) {
        if count < 64 {
            small |= 1 << UInt64(position)
        } else {
            large[position >> 6] |= 1 << UInt64(position & 63)
        }
    }

    mutating func formUnion(_ other: PositionSet) {
        if count < 64 {
            small |= other.small
        } else {
            for index in large.indices { large[index] |= other.large[index] }
        }
    }

    /// Calls `body` with each position, in increasing order.
    @inline(__always)
    func forEach(_ body: (Int) -> Void) {
        if count < 64 {
            var bits = small
            while bits != 0 {
                body(bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
            return
        }
        for (word, value) in large.enumerated() {
            var bits = value
            while bits != 0 {
                body(word << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }

    /// Every position after one of the set's positions is consumed by `?`.
    func shifted() -> PositionSet {
        var result = PositionSet(count: count)
        if count < 64 {
            result.small = (small << 1) & Self.mask(count)
        } else {
            forEach { if $0 < count { result.insert($0 + 1) } }
        }
        return result
    }

    /// Every position at or after the smallest one: what `*` reaches.
    func fromFirst() -> PositionSet {
        var result = PositionSet(count: count)
        if count < 64 {
            guard small != 0 else { return result }
            result.small = ~((small & (0 &- small)) &- 1) & Self.mask(count)
        } else {
            var first: Int?
            forEach { if first == nil { first = $0 } }
            guard let first else { return result }
            for position in first...count { result.insert(position) }
        }
        return result
    }

    private static func mask(_ count: Int) -> UInt64 {
        count >= 63 ? ~0 : (1 << UInt64(count + 1)) &- 1
    }
}
