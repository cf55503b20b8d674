import AASASystem
@preconcurrency import Glibc

/// The access log of one event loop: a line per request appended to a buffer as bytes (no
/// string formatting on the request path) and written to stdout once per loop iteration.
///
/// text: `TIME CLIENT "HOST" "METHOD PATH VERSION" STATUS BYTES DURATIONms "USER-AGENT"`
/// json: `{"time":…,"client":…,"host":…,"method":…,"path":…,"status":…,"bytes":…,
/// "duration_ms":…,"user_agent":…}`
struct AccessLog {
    struct Entry {
        var client: [UInt8]
        var host: UnsafeBufferPointer<UInt8>
        var method: UnsafeBufferPointer<UInt8>
        var path: UnsafeBufferPointer<UInt8>
        var isHTTP11: Bool
        var status: Int
        var bytes: Int
        var durationNanoseconds: UInt64
        var userAgent: UnsafeBufferPointer<UInt8>
    }

    let format: LogFormat
    let enabled: Bool
    private(set) var buffer: [UInt8] = []
    /// Lines dropped because stdout did not take them and the buffer was full, since the
    /// last `takeDropped()`.
    private var dropped = 0
    /// What one loop keeps while stdout is slow; past it, new lines are dropped and counted
    /// rather than the loop waiting for a log reader (`Server.makeStdoutNonBlocking`).
    static let bufferLimit = 1024 * 1024

    init(format: LogFormat, enabled: Bool) {
        self.format = format
        self.enabled = enabled
        buffer.reserveCapacity(enabled ? 64 * 1024 : 0)
    }

    mutating func record(_ entry: Entry, time: [UInt8]) {
        guard enabled else { return }
        guard buffer.count < Self.bufferLimit else {
            dropped += 1
            return
        }
        switch format {
        case .text:
            buffer += time
            buffer.append(0x20)
            buffer += entry.client
            append(" \"")
            appendEscaped(entry.host, json: false)
            append("\" \"")
            appendEscaped(entry.method, json: false)
            buffer.append(0x20)
            appendEscaped(entry.path, json: false)
            append(entry.isHTTP11 ? " HTTP/1.1\" " : " HTTP/1.0\" ")
            appendNumber(entry.status)
            buffer.append(0x20)
            appendNumber(entry.bytes)
            buffer.append(0x20)
            appendMilliseconds(entry.durationNanoseconds)
            append("ms \"")
            appendEscaped(entry.userAgent, json: false)
            append("\"\n")
        case .json:
            append("{\"time\":\"")
            buffer += time
            append("\",\"client\":\"")
            buffer += entry.client
            append("\",\"host\":\"")
            appendEscaped(entry.host, json: true)
            append("\",\"method\":\"")
            appendEscaped(entry.method, json: true)
            append("\",\"path\":\"")
            appendEscaped(entry.path, json: true)
            append("\",\"status\":")
            appendNumber(entry.status)
            append(",\"bytes\":")
            appendNumber(entry.bytes)
            append(",\"duration_ms\":")
            appendMilliseconds(entry.durationNanoseconds)
            append(",\"user_agent\":\"")
            appendEscaped(entry.userAgent, json: true)
            append("\"}\n")
        }
    }

    /// Writes the buffered lines to stdout, once per loop iteration. On a pipe or socket
    /// stdout is non-blocking: what it does not take now (a slow log reader) stays for the
    /// next iteration, so the loop never waits and no line is cut in two.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        var offset = 0
        var gone = false
        buffer.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            while offset < bytes.count {
                let rest = UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset)
                switch Posix.writeStandardStream(1, rest) {
                case .processed(let written) where written > 0: offset += written
                // Try again next iteration.
                case .wouldBlock: return
                // stdout closed or its reader gone: drop the log rather than block or crash.
                case .processed, nil:
                    gone = true
                    return
                }
            }
        }
        if gone || offset == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if offset > 0 {
            buffer.removeSubrange(..<offset)
        }
    }

    /// The lines dropped since the last call, for the metrics.
    mutating func takeDropped() -> Int {
        defer { dropped = 0 }
        return dropped
    }

    /// Request bytes are untrusted: quotes, backslashes and control bytes are escaped so a
    /// client cannot forge log lines. Text writes every other byte outside printable ASCII as
    /// `\xHH`. JSON passes well-formed UTF-8 through (RFC 8259 §8.1) and writes a byte that
    /// is not part of one as `\ufffd` (U+FFFD, the replacement character): `\u00HH` per byte
    /// would read back as Latin-1, `é` as `Ã©`. C1 controls and U+2028/U+2029 are escaped
    /// too, since some readers break lines at them.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, json: Bool) {
        if bytes.isEmpty && !json {
            buffer.append(UInt8(ascii: "-"))
            return
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                buffer.append(byte)
                index += 1
            } else if !json {
                append("\\x")
                appendHex(byte)
                index += 1
            } else if byte < 0x80 {
                append("\\u00")
                appendHex(byte)
                index += 1
            } else if let length = Self.sequenceLength(bytes, at: index) {
                let second = bytes[index + 1]
                if byte == 0xC2 && second < 0xA0 {
                    append("\\u00")
                    appendHex(second)
                } else if byte == 0xE2 && second == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) {
                    append("\\u20")
                    appendHex(bytes[index + 2] - 0x80)
                } else {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                }
                index += length
            } else {
                append("\\ufffd")
                index += 1
            }
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (RFC 3629 §4: no
    /// overlong forms, no surrogates, nothing past U+10FFFF); nil when none starts there.
    static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[index] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for continuation in bytes[(index + 2)..<(index + length)] where continuation & 0xC0 != 0x80 { return nil }
        return length
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    private mutating func appendHex(_ byte: UInt8) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { hex in
            buffer.append(hex[Int(byte >> 4)])
            buffer.append(hex[Int(byte & 0xF)])
        }
    }

    private mutating func appendNumber(_ value: Int) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Milliseconds with three decimals.
    private mutating func appendMilliseconds(_ nanoseconds: UInt64) {
        let micros = Int(nanoseconds / 1000)
        appendNumber(micros / 1000)
        buffer.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        if fraction < 100 { buffer.append(UInt8(ascii: "0")) }
        if fraction < 10 { buffer.append(UInt8(ascii: "0")) }
        appendNumber(fraction)
    }
}
