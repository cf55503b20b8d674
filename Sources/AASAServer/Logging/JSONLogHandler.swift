import AASASystem
import AASATransport
import AssociationKit
@preconcurrency import Glibc
import Logging

/// swift-log events as JSON lines on stderr (`--log-format json`), values typed (`LogValue`);
/// text is `TextLogHandler`.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [(key: String, value: JSONNode)] = [
            ("time", HTTPDate.iso8601(Int(time(nil)))), ("level", event.level.rawValue), ("label", label),
            ("message", "\(event.message)"),
        ].map { (key: $0.0, value: .string($0.1)) }
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }).sorted(by: {
            $0.key < $1.key
        }) {
            fields.append((key: key, value: LogValue.json(value)))
        }
        // Line-safe: a value cannot end the event's line or start a forged one.
        fputs(JSONWriter(lineSafe: true).text(.object(fields)) + "\n", stderr)
    }
}
