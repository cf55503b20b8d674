@preconcurrency import Glibc
import Logging

/// swift-log events as JSON lines on stderr (`--log-format json`); text is `TextLogHandler`.
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
        var fields = [
            ("time", HTTPDate.iso8601(Int(time(nil)))), ("level", event.level.rawValue), ("label", label), ("message", "\(event.message)"),
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }).sorted(by: { $0.key < $1.key }) {
            fields.append((key, "\(value)"))
        }
        let line = "{" + fields.map { "\"\(Self.escape($0.0))\":\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}\n"
        fputs(line, stderr)
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

private extension String {
    init(format value: UInt32) {
        let hex = String(value, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
