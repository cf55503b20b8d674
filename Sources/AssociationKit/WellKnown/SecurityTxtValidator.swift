/// Reads and checks a `security.txt` (RFC 9116), each finding with a `SEC0xx` code and the
/// line it is on: `Contact` (one or more, each a URI) and exactly one `Expires` (an RFC 3339
/// date) are required (§2.5.3, §2.5.5); an `Expires` already past is an error and one within
/// `expiryWarning` seconds a warning; a field RFC 9116 and its registry do not define is a note
/// (§2.4: readers ignore it). An OpenPGP cleartext signature (RFC 4880 §7) is accepted and its
/// framing checked; the signature itself is not verified (there is no key to verify it with).
public enum SecurityTxtValidator {
    /// 30 days: `Expires` closer than this is a warning, and the metric watches it.
    public static let expiryWarning = 30 * 86_400

    /// The fields of RFC 9116 §2.5 and of IANA's "security.txt Fields" registry, lower-cased.
    static let knownFields: Set<String> = [
        "acknowledgments", "canonical", "contact", "encryption", "expires", "hiring", "policy",
        "preferred-languages", "csaf",
    ]
    /// The fields whose value is a URI (§2.5).
    static let uriFields: Set<String> = [
        "acknowledgments", "canonical", "contact", "encryption", "hiring", "policy", "csaf",
    ]

    static let signedBegin = "-----BEGIN PGP SIGNED MESSAGE-----"
    static let signatureBegin = "-----BEGIN PGP SIGNATURE-----"
    static let signatureEnd = "-----END PGP SIGNATURE-----"

    /// `bytes` checked as a `security.txt` of at most `limit` bytes, `now` in seconds since the epoch.
    public static func validate(_ bytes: [UInt8], now: Int, limit: Int) -> TextFileReport {
        var found: [Diagnostic] = []
        if let size = PlainTextValidator.size(bytes, limit: limit, name: "security.txt") { found.append(size) }
        if let offset = PlainTextValidator.firstNonText(bytes) {
            found.append(
                Diagnostic(
                    .securityTxtNotText, "security.txt must be UTF-8 text (RFC 9116 §2.3): not text at byte \(offset)",
                    at: SourceLocation.of(offset: offset, in: bytes), pointer: ""))
            return TextFileReport(found)
        }
        let lines = Self.lines(bytes)
        var contacts = 0
        var expires: [(value: Int?, line: Line)] = []
        for line in content(of: lines, found: &found) {
            let text = line.text
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) || text.hasPrefix("#") { continue }
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
                text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else {
                found.append(
                    line.diagnostic(
                        .securityTxtMalformedLine,
                        "\"\(text.prefix(60))\" is neither \"Field: value\", a # comment nor blank (RFC 9116 §2.4)"))
                continue
            }
            let name = text[..<colon].lowercased()
            let value = String(text[text.index(after: colon)...].trimmingSpaces)
            if !knownFields.contains(name) {
                found.append(
                    line.diagnostic(
                        .securityTxtUnknownField,
                        "\"\(text[..<colon])\" is not a field RFC 9116 defines; readers ignore it"))
                continue
            }
            if uriFields.contains(name), let problem = uriProblem(value) {
                found.append(line.diagnostic(.securityTxtInvalidURI, "\(text[..<colon]): \(problem)"))
            }
            switch name {
            case "contact": contacts += 1
            case "expires":
                let date = RFC3339Date.seconds(value)
                if date == nil {
                    found.append(
                        line.diagnostic(
                            .securityTxtInvalidExpires,
                            "Expires \"\(value)\" is not an RFC 3339 date and time, such as 2027-01-31T23:00:00Z"))
                }
                expires.append((date, line))
            default: break
            }
        }
        let start = lines.first.map { $0.location } ?? .start
        if contacts == 0 {
            found.append(
                Diagnostic(
                    .securityTxtNoContact,
                    "no Contact field: RFC 9116 §2.5.3 requires at least one (mailto:, https:// or tel: URI)",
                    at: start, pointer: ""))
        }
        switch expires.count {
        case 0:
            found.append(
                Diagnostic(
                    .securityTxtNoExpires, "no Expires field: RFC 9116 §2.5.5 requires exactly one", at: start,
                    pointer: ""))
        case 1:
            if let date = expires[0].value { found += expiry(date, now: now, line: expires[0].line) }
        default:
            for extra in expires.dropFirst() {
                found.append(
                    extra.line.diagnostic(
                        .securityTxtSeveralExpires,
                        "Expires given again (first on line \(expires[0].line.location.line)); RFC 9116 §2.5.5 "
                            + "allows exactly one"))
            }
        }
        return TextFileReport(found, expires: expires.count == 1 ? expires[0].value : nil)
    }

    /// `SEC004` or `SEC005` for an `Expires` of `date`.
    static func expiry(_ date: Int, now: Int, line: Line) -> [Diagnostic] {
        if date <= now {
            return [
                line.diagnostic(
                    .securityTxtExpired,
                    "expired \(describe(now - date)) ago: readers treat an expired security.txt as stale "
                        + "(RFC 9116 §2.5.5); set a new Expires")
            ]
        }
        if date - now <= expiryWarning {
            return [
                line.diagnostic(
                    .securityTxtExpiresSoon, "expires in \(describe(date - now)); set a later Expires before then")
            ]
        }
        return []
    }

    static func describe(_ seconds: Int) -> String {
        seconds >= 86_400 ? "\(seconds / 86_400) days" : seconds >= 3600 ? "\(seconds / 3600) hours" : "\(seconds) s"
    }

    /// Why `value` is not a URI a reader can use (§2.5: a web URI must be https), or nil.
    static func uriProblem(_ value: String) -> String? {
        guard let colon = value.firstIndex(of: ":"), colon != value.startIndex,
            value[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            !value.contains(" "), value.index(after: colon) < value.endIndex
        else { return "\"\(value.prefix(80))\" is not a URI (mailto:, https:// or tel:)" }
        if value[..<colon].lowercased() == "http" { return "\"\(value.prefix(80))\" must be https (RFC 9116 §2.5)" }
        return nil
    }

    /// One line of the file: its text (without LF) and where it starts.
    struct Line {
        var text: String
        var location: SourceLocation

        func diagnostic(_ code: DiagnosticCode, _ message: String) -> Diagnostic {
            Diagnostic(code, message, at: location, pointer: "")
        }
    }

    static func lines(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        var number = 1
        func add(_ end: Int) {
            // CRLF or LF (RFC 9116 §2.3): the CR is not part of the line.
            let last = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
            let location = SourceLocation(line: number, column: 1, offset: start)
            lines.append(Line(text: String(decoding: bytes[start..<last], as: UTF8.self), location: location))
        }
        for index in bytes.indices where bytes[index] == 0x0A {
            add(index)
            (start, number) = (index + 1, number + 1)
        }
        if start < bytes.count { add(bytes.count) }
        return lines
    }

    /// The lines that carry fields: all of them, or, in a cleartext-signed file, the signed
    /// text with its dash-escapes removed (RFC 4880 §7.1); a broken frame is `SEC010`.
    static func content(of lines: [Line], found: inout [Diagnostic]) -> [Line] {
        let trimmed = { (line: Line) in line.text[...].trimmingSpaces }
        guard let begin = lines.firstIndex(where: { !trimmed($0).isEmpty }), trimmed(lines[begin]) == signedBegin else {
            if let stray = lines.first(where: { trimmed($0).hasPrefix("-----BEGIN PGP") }) {
                found.append(
                    stray.diagnostic(
                        .securityTxtBadSignature,
                        "an OpenPGP block that does not open the file: a cleartext signature starts with "
                            + "\(signedBegin) on the first line (RFC 4880 §7)"))
            }
            return lines
        }
        // Armor headers ("Hash: SHA256") up to the first blank line.
        guard let blank = lines[(begin + 1)...].firstIndex(where: { trimmed($0).isEmpty }),
            let signature = lines[blank...].firstIndex(where: { trimmed($0) == signatureBegin }),
            lines[signature...].contains(where: { trimmed($0) == signatureEnd })
        else {
            found.append(
                lines[begin].diagnostic(
                    .securityTxtBadSignature,
                    "a cleartext-signed file without its blank line after the headers, \(signatureBegin) "
                        + "or \(signatureEnd) (RFC 4880 §7)"))
            return Array(lines[(begin + 1)...])
        }
        return lines[(blank + 1)..<signature].map { line in
            var line = line
            if line.text.hasPrefix("- ") { line.text.removeFirst(2) }
            return line
        }
    }
}
