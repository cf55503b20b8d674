/// The one HTML escaper of the admin listener's pages and of fallback.json's pages. It works on UTF-8 bytes, not on Swift
/// `Character`s: a grapheme cluster can hold a markup character (`"` followed by U+0301, or
/// U+0600 before `<`), and a switch over clusters would pass it through unescaped. The five
/// characters escaped are ASCII, so no byte of a multi-byte sequence is ever touched (RFC 3629
/// §3), and the result is safe both in text and inside a double- or single-quoted attribute
/// value (HTML Living Standard §13.1.2.3).
package enum HTMLText {
    package static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        escape(text.utf8, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text`'s bytes to `bytes`, escaped.
    package static func escape(_ text: some Sequence<UInt8>, into bytes: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "<"): bytes += "&lt;".utf8
            case UInt8(ascii: ">"): bytes += "&gt;".utf8
            case UInt8(ascii: "&"): bytes += "&amp;".utf8
            case UInt8(ascii: "\""): bytes += "&quot;".utf8
            case UInt8(ascii: "'"): bytes += "&#39;".utf8
            default: bytes.append(byte)
            }
        }
    }
}
