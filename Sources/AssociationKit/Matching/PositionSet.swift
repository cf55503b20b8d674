/// A set of positions `0...count` in a text: the state of the position-set matcher. Texts up
/// to 63 characters (nearly every URL part) fit in one machine word, so a step of the
/// matcher is a few bit operations and allocates nothing; longer texts use an array of words,
/// and every step works on whole words (count / 64 operations), never position by position.
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
    func forEachPosition(_ body: (Int) -> Void) {
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
            return result
        }
        var carry: UInt64 = 0
        for index in large.indices {
            result.large[index] = large[index] << 1 | carry
            carry = large[index] >> 63
        }
        result.clearPastEnd()
        return result
    }

    /// The positions after consuming `scalar`: `(self ∩ where the text holds scalar) + 1`.
    func advanced(over scalar: UInt32, _ text: inout TextMasks) -> PositionSet {
        if count < 64 {
            var result = PositionSet(count: count)
            forEachPosition { if $0 < count && text.text[$0] == scalar { result.insert($0 + 1) } }
            return result
        }
        var holding = self
        text.withMask(of: scalar) { mask in
            for index in holding.large.indices { holding.large[index] &= mask[index] }
        }
        return holding.shifted()
    }

    /// Every position at or after the smallest one: what `*` reaches.
    func fromFirst() -> PositionSet {
        var result = PositionSet(count: count)
        if count < 64 {
            guard small != 0 else { return result }
            result.small = ~((small & (0 &- small)) &- 1) & Self.mask(count)
            return result
        }
        guard let first = large.firstIndex(where: { $0 != 0 }) else { return result }
        result.large[first] = ~((large[first] & (0 &- large[first])) &- 1)
        for index in (first + 1)..<large.count { result.large[index] = ~0 }
        result.clearPastEnd()
        return result
    }

    /// Drops bits for positions past `count` (the last word's unused tail).
    private mutating func clearPastEnd() {
        let used = (count + 1) & 63
        if used != 0 { large[large.count - 1] &= (1 << UInt64(used)) &- 1 }
    }

    private static func mask(_ count: Int) -> UInt64 {
        count >= 63 ? ~0 : (1 << UInt64(count + 1)) &- 1
    }
}

/// The text being matched, with, per scalar, the positions holding it: built on first use
/// and kept for the rest of the match, so a literal step on a long text is a few word
/// operations per 64 characters.
struct TextMasks {
    let text: UnsafeBufferPointer<UInt32>
    private var masks: [UInt32: [UInt64]] = [:]
    /// Masks kept at most: a text with more distinct scalars has the rest built per step,
    /// so the cache stays under this × text length / 8 bytes.
    private static let cacheLimit = 256

    init(_ text: UnsafeBufferPointer<UInt32>) {
        self.text = text
    }

    mutating func withMask(of scalar: UInt32, _ body: ([UInt64]) -> Void) {
        if let mask = masks[scalar] { return body(mask) }
        var mask = [UInt64](repeating: 0, count: text.count / 64 + 1)
        for (position, character) in text.enumerated() where character == scalar {
            mask[position >> 6] |= 1 << UInt64(position & 63)
        }
        if masks.count < Self.cacheLimit { masks[scalar] = mask }
        body(mask)
    }
}
