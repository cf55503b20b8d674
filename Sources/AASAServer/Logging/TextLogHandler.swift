import AASALoop
import AASASystem
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
        // One event, one line: the message and values may hold names from disk or a peer,
        // so their line breaks are escaped (`LogText`), never written.
        var line = "\(HTTPDate.iso8601(Int(time(nil)))) \(event.level.rawValue) \(LogText.escaped("\(event.message)"))"
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }).sorted(by: {
            $0.key < $1.key
        }) {
            line += " " + LogText.field(key, LogValue.text(value))
        }
        fputs(line + "\n", stderr)
    }
}
