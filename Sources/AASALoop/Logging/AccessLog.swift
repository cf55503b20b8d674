import AASASystem
import AssociationKit
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
    /// rather than the loop waiting for a log reader (`ServerBuilder.makeStdoutNonBlocking`).
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
    /// `\xHH`. JSON goes through AssociationKit's writer: well-formed UTF-8 as it is (RFC 8259
    /// §8.1), a byte that is not part of one as `\ufffd` (U+FFFD) — `\u00HH` per byte would
    /// read back as Latin-1, `é` as `Ã©` — appending to the buffer without allocating.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, json: Bool) {
        if json {
            JSONWriter.appendStringContents(bytes: bytes, to: &buffer)
            return
        }
        if bytes.isEmpty {
            buffer.append(UInt8(ascii: "-"))
            return
        }
        for byte in bytes {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                buffer.append(byte)
            } else {
                append("\\x")
                appendHex(byte)
            }
        }
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
        DecimalText.withDigits(value) { buffer.append(contentsOf: $0) }
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
