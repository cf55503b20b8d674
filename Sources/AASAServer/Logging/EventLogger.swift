import AASALoop
import Logging

/// The server's event logger (start-up, reload, stop, errors), on stderr so stdout carries
/// only the access log.
public enum EventLogger {
    public static func make(format: LogFormat) -> Logger {
        Logger(label: "aasa-server") { label in
            switch format {
            case .text: TextLogHandler()
            case .json: JSONLogHandler(label: label)
            }
        }
    }
}
