/// The mistakes people make in association files, read past so one run reports them all:
/// comments, trailing commas, strings in single or curly quotes. Each is an error (the file is
/// still not JSON, and Apple's and Android's parsers refuse it), and reading goes on as if the
/// comment or comma were not there and the string had straight double quotes. Every recovery
/// moves forward, so reading stays linear in the input.
extension JSONParser {
    /// Past this many, recovered findings get their pointer from the value tree, and only if
    /// kept (`OmittedDiagnostics.limit`), so a file of ten thousand commas costs no more.
    static var eagerPointerLimit: Int { OmittedDiagnostics.limit }

    mutating func recovered(_ code: DiagnosticCode, _ message: String, at location: SourceLocation) {
        recoveredCount += 1
        if recoveredCount <= Self.eagerPointerLimit {
            findings.append(Diagnostic(code, message, at: location, pointer: currentPointer))
        } else {
            findings.append(Diagnostic(code, message, at: location, valueAt: location.offset))
        }
    }

    /// `lines` is the tracker as it was at the comma, before the whitespace after it was read.
    mutating func recoverTrailingComma(at comma: Int, before close: String, lines atComma: LineTracker) {
        var tracker = atComma
        recovered(
            .jsonTrailingComma, "trailing comma before `\(close)`; remove it",
            at: tracker.location(of: comma, in: bytes))
    }

    /// At `/`: reads past a `//` or `/* */` comment and reports it; false when it is no comment.
    mutating func skipComment() -> Bool {
        guard index + 1 < bytes.count else { return false }
        let start = index
        let kind = bytes[index + 1]
        guard kind == UInt8(ascii: "/") || kind == UInt8(ascii: "*") else { return false }
        let location = lines.location(of: start, in: bytes)
        index += 2
        var closed = true
        if kind == UInt8(ascii: "/") {
            // The line feed ends the comment and is read as whitespace by the caller.
            while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
        } else {
            closed = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "*") && peek(UInt8(ascii: "/")) {
                    index += 1
                    closed = true
                    break
                }
                if byte == UInt8(ascii: "\n") { lines.newLine(startingAt: index) }
            }
        }
        let advice = "comments are not allowed in JSON; remove it (use a \"comment\" key inside a component instead)"
        recovered(
            .jsonComment, closed ? advice : "a comment that is never closed (`/*` without `*/`); " + advice,
            at: location)
        return true
    }

    /// A curly quote at `offset` (U+2018–U+201F, UTF-8 E2 80 98–9F) and whether it is a double one.
    func curlyQuote(at offset: Int) -> (scalar: Unicode.Scalar, isDouble: Bool)? {
        guard offset + 2 < bytes.count, bytes[offset] == 0xE2, bytes[offset + 1] == 0x80,
            (0x98...0x9F).contains(bytes[offset + 2])
        else { return nil }
        let scalar = Unicode.Scalar(0x2000 | UInt32(bytes[offset + 2] & 0x3F)) ?? "\""
        return (scalar, bytes[offset + 2] >= 0x9C)
    }

    func opensMisquotedString(at offset: Int) -> Bool {
        bytes[offset] == UInt8(ascii: "'") || curlyQuote(at: offset) != nil
    }

    /// At `'` or a curly quote: reads the string to its partner quote and reports the quotes.
    mutating func parseMisquotedString() throws(JSONSyntaxError) -> String {
        let open = index
        let location = lines.location(of: open, in: bytes)
        guard let curly = curlyQuote(at: open) else {
            let text = try scanString(open: open, contentStart: open + 1, closedBy: .single).text
            recovered(
                .jsonSingleQuote, "a string in single quotes (') where JSON needs double quotes (\")", at: location)
            return text
        }
        let (text, closing) = try scanString(
            open: open, contentStart: open + 3, closedBy: curly.isDouble ? .curlyDouble : .curlySingle)
        var message = "\(Self.name(of: curly.scalar)) where JSON needs \""
        if closing != "\"" { message += "; the string ends with \(Self.name(of: closing)), also to be \"" }
        recovered(.jsonCurlyQuote, message, at: location)
        return text
    }

    /// For a syntax error right after a string holding a curly double quote: that quote was
    /// likely meant to end the string (`"key”: …` reads on to the next straight quote).
    func curlyQuoteHint() -> String {
        guard let offset = curlyQuoteInLastString, let curly = curlyQuote(at: offset), lastStringEnd <= index,
            bytes[lastStringEnd..<min(index, bytes.count)].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) })
        else { return "" }
        let at = SourceLocation.of(offset: offset, in: bytes)
        return "; the string before holds \(Self.name(of: curly.scalar)) at line \(at.line), column \(at.column): "
            + "if it was meant to end the string, JSON needs \""
    }
}
