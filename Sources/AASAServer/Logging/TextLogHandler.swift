import AASATransport
@preconcurrency import Glibc
import Logging

/// swift-log events as text lines on stderr: `TIME LEVEL MESSAGE key=value …`, with the same
/// UTC timestamp as the access log (`HTTPDate.iso8601`), so both read alike side by side.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = "\(HTTPDate.iso8601(Int(time(nil)))) \(event.level.rawValue) \(event.message)"
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }).sorted(by: {
            $0.key < $1.key
        }) {
            let text = "\(value)"
            // Multi-line values (a reload's diagnostics) follow on their own lines.
            line +=
                text.contains("\n")
                ? "\n" + text.trimmingSuffixNewlines : " \(key)=\(text.contains(" ") ? "\"\(text)\"" : text)"
        }
        fputs(line + "\n", stderr)
    }
}

extension String {
    fileprivate var trimmingSuffixNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
