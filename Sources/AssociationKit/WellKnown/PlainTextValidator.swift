/// The checks a file can have when its format is not ours to know: its size against the
/// kind's limit, and, for a text kind (the Apple Pay domain association), that it is not
/// empty and is text (docs/serving.md, "Every file a domain owes").
public enum PlainTextValidator {
    /// A file of `limit` bytes at most, not empty, UTF-8 without control characters other
    /// than tab, CR and LF (`WKN001`…`WKN003`).
    public static func validateText(_ bytes: [UInt8], limit: Int, name: String) -> TextFileReport {
        var found: [Diagnostic] = []
        if let size = size(bytes, limit: limit, name: name) { found.append(size) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            found.append(
                Diagnostic(
                    .wellKnownEmpty, "\(name) is empty; serve the exact file you were given", at: .start, pointer: ""))
        } else if let offset = firstNonText(bytes) {
            found.append(
                Diagnostic(
                    .wellKnownNotText,
                    "\(name) is not text (a control character or bytes that are not UTF-8 at byte \(offset)); "
                        + "serve the exact file you were given, not a binary or an archive",
                    at: SourceLocation.of(offset: offset, in: bytes), pointer: ""))
        }
        return TextFileReport(found)
    }

    /// A file of a site's `well-known/` folder: its size, and a note when `name` is not in
    /// IANA's Well-Known URIs registry (`WKN003`, `WKN004`).
    public static func validateFolderFile(_ bytes: [UInt8], limit: Int, name: String) -> TextFileReport {
        var found: [Diagnostic] = []
        if let size = size(bytes, limit: limit, name: name) { found.append(size) }
        if !WellKnownNames.registered.contains(name) {
            found.append(
                Diagnostic(
                    .wellKnownUnregistered,
                    "/.well-known/\(name) is not in IANA's Well-Known URIs registry (RFC 8615): check the name "
                        + "the client asks for", at: .start, pointer: ""))
        }
        return TextFileReport(found)
    }

    static func size(_ bytes: [UInt8], limit: Int, name: String) -> Diagnostic? {
        guard bytes.count > limit else { return nil }
        return Diagnostic(
            .wellKnownTooLarge, "\(name) is \(bytes.count) bytes; its kind is served up to \(limit) bytes",
            at: .start, pointer: "")
    }

    /// The offset of the first byte that is not text: invalid UTF-8, or a C0 control
    /// character other than tab, LF and CR, or DEL.
    static func firstNonText(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F { return index }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            guard length > 0, index + length <= bytes.count,
                bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }),
                String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
            else { return index }
            index += length
        }
        return nil
    }
}
