import AASASystem
@preconcurrency import Glibc

/// The first PEM block of a label in a file's bytes, decoded (RFC 7468 §2): found with
/// memchr(3) and decoded by a table, because Foundation's generic `firstRange(of:)` and
/// `Data(base64Encoded:)` took most of the certificate index's time at 100,000 certificates
/// (docs/development.md, "Many certificates").
package enum PEMBlock {
    /// The DER bytes between `-----BEGIN label-----` and `-----END label-----`; nil when
    /// there is no such block or its text is not base64 (line breaks and spaces allowed).
    package static func first(_ label: String, in pem: [UInt8]) -> [UInt8]? {
        let begin = Array("-----BEGIN \(label)-----".utf8)
        let end = Array("-----END \(label)-----".utf8)
        return pem.withUnsafeBytes { bytes -> [UInt8]? in
            guard let base = bytes.baseAddress,
                let start = find(begin, in: base, from: 0, to: bytes.count).map({ $0 + begin.count }),
                let stop = find(end, in: base, from: start, to: bytes.count)
            else { return nil }
            return decode(UnsafeRawBufferPointer(rebasing: bytes[start..<stop]))
        }
    }

    /// The offset of `needle` in `base[from..<to]`.
    private static func find(_ needle: [UInt8], in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
        guard let first = needle.first else { return from }
        var offset = from
        return needle.withUnsafeBytes { needleBytes -> Int? in
            while to - offset >= needle.count {
                // memchr(3) for the first byte, then memcmp(3) for the rest.
                guard let hit = memchr(base + offset, Int32(first), to - offset - needle.count + 1) else {
                    return nil
                }
                let position = UnsafeRawPointer(hit) - base
                guard let pattern = needleBytes.baseAddress else { return nil }
                if memcmp(hit, pattern, needle.count) == 0 { return position }
                offset = position + 1
            }
            return nil
        }
    }

    /// Each ASCII byte's 6-bit value; 0xFE for white space (skipped), 0xFF for anything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        for space in [9, 10, 13, 32] { table[space] = 0xFE }
        return table
    }()

    /// Base64 (RFC 4648 §4) with white space anywhere and `=` padding only at the end; nil
    /// for any other byte, a stray `=` or a length that is not whole. The block may be a
    /// private key: the output's room is reserved whole, so appending never moves it (a move
    /// frees the old buffer as it was), and what was decoded before a bad byte is wiped.
    package static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var count = 0
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            let value = values[Int(byte)]
            if value == 0xFE { continue }
            guard value != 0xFF, padding == 0 else {
                out.wipe()
                return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            count += 1
            if count == 4 {
                out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                out.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                count = 0
            }
        }
        switch (count, padding) {
        case (0, 0): break
        case (2, 2), (2, 0): out.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case (3, 1), (3, 0):
            out.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            out.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            out.wipe()
            return nil
        }
        return out
    }
}
