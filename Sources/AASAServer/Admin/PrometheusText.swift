/// /metrics written straight in the Prometheus text exposition format (version 0.0.4), the one
/// writer of every family: a HELP and a TYPE line once per family, then its samples.
/// swift-prometheus 2.4, used before, copied a family's whole label dictionary for every new
/// labelled series (a scrape of 10,000 sites took 4 s) and was rebuilt per scrape anyway.
struct PrometheusText {
    enum Kind: String {
        case counter
        case gauge
    }

    private(set) var text = ""
    /// The families written so far: the format allows one HELP and one TYPE line per family.
    private(set) var families: Set<String> = []

    mutating func family(_ name: String, type: Kind, help: String) {
        assert(!families.contains(name), "family \(name) written twice")
        // Counters end in `_total` (OpenMetrics and Prometheus' naming practices).
        assert(type != .counter || name.hasSuffix("_total"), "counter \(name) does not end in _total")
        families.insert(name)
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    /// A sample whose value is written as an integer when it is one (`3`), otherwise in
    /// Swift's shortest form.
    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        appendName(name, labels)
        text += (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : Self.number(value)) + "\n"
    }

    /// A sample whose value is always written as a floating-point number (`3.0`): the gauges
    /// swift-prometheus used to render read so, and scrapers and tests compare these lines.
    mutating func sample(_ name: String, _ labels: [(String, String)], real value: Double) {
        appendName(name, labels)
        text += Self.number(value) + "\n"
    }

    private mutating func appendName(_ name: String, _ labels: [(String, String)]) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " "
    }

    /// The format's spellings of the values Swift writes otherwise (`+Inf`, `-Inf`, `NaN`).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        return "\(value)"
    }

    /// Label values escape backslash, double quote and line feed (exposition format spec).
    static func escape(_ value: String) -> String { escaped(value, quote: true) }

    /// HELP text escapes backslash and line feed only (exposition format spec).
    static func escapeHelp(_ value: String) -> String { escaped(value, quote: false) }

    /// By UTF-8 bytes: as Swift `Character`s, `"\r\n"` is one cluster that equals neither
    /// `"\n"` nor anything else escaped, and its line feed would end the sample.
    private static func escaped(_ value: String, quote escapesQuote: Bool) -> String {
        let backslash = UInt8(ascii: "\\")
        let quote = UInt8(ascii: "\"")
        let lineFeed = UInt8(ascii: "\n")
        let special = { (byte: UInt8) in byte == backslash || byte == lineFeed || (escapesQuote && byte == quote) }
        guard value.utf8.contains(where: special) else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 8)
        for byte in value.utf8 {
            switch byte {
            case backslash: bytes += [backslash, backslash]
            case quote where escapesQuote: bytes += [backslash, quote]
            case lineFeed: bytes += [backslash, UInt8(ascii: "n")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
