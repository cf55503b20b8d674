/// How the access log and events are written (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}
