/// Families with a series per site (or per site, path and status) written straight in the
/// Prometheus text exposition format (version 0.0.4). swift-prometheus 2.4 copies a family's
/// whole label dictionary for every new labelled series, which made a scrape of 10,000 sites
/// take 4 s; written here, the same families take milliseconds. swift-prometheus still
/// renders the fixed, small families.
struct PrometheusText {
    private(set) var text = ""

    mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)) + "\n"
    }

    /// Label values escape backslash, double quote and line feed (exposition format spec).
    static func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
