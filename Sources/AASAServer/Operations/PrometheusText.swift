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

    /// Label values escape backslash, double quote and line feed (exposition format spec),
    /// by UTF-8 bytes: as Swift `Character`s, `"\r\n"` is one cluster that equals neither
    /// `"\n"` nor anything else escaped, and its line feed would end the sample.
    static func escape(_ value: String) -> String {
        let backslash = UInt8(ascii: "\\")
        let quote = UInt8(ascii: "\"")
        let lineFeed = UInt8(ascii: "\n")
        guard value.utf8.contains(where: { $0 == backslash || $0 == quote || $0 == lineFeed }) else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 8)
        for byte in value.utf8 {
            switch byte {
            case backslash: bytes += [backslash, backslash]
            case quote: bytes += [backslash, quote]
            case lineFeed: bytes += [backslash, UInt8(ascii: "n")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
