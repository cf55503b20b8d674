import AASAACME
import AASALoop
import AASASiteServing
import AASATransport
import AssociationKit
import Foundation

/// How one setting's text is read and checked, and how help shows its default: the same for a
/// flag, an `AASA_*` variable and a config key (a config file's booleans and numbers arrive as
/// their text). A problem names no source: `ServerConfiguration.apply` puts the source first.
struct SettingValue<Value>: Sendable {
    typealias Problem = ServerConfiguration.Problem

    let read: @Sendable (String) throws(Problem) -> Value
    let show: @Sendable (Value) -> String
    var form = ServerConfiguration.Setting.Form.value
    /// A path: in a config file, relative to the file's folder.
    var isPath = false
    /// What a config file's `null` stands for: off for a switch or a listener, empty (none)
    /// for a list or an optional value.
    var cleared = "off"
    /// A document's reader (`Form.document`): a config file's JSON value, its relative paths
    /// from `folder`; the flag's and the variable's text is parsed as JSON first.
    var readDocument: (@Sendable (JSONValue, _ folder: String) throws(Problem) -> Value)?
}

extension SettingValue where Value == String {
    /// Anything; help shows it as it is.
    static var text: Self { Self(read: { $0 }, show: { $0 }) }

    /// A text that `accepts`, else `problem`; help shows it as it is.
    static func text(_ problem: String, accepts: @escaping @Sendable (String) -> Bool) -> Self {
        Self(
            read: { text throws(Problem) in
                guard accepts(text) else { throw Problem(description: problem) }
                return text
            }, show: { $0 })
    }

    /// Printable ASCII, not empty (a header's value, a User-Agent's part).
    static func printable(_ problem: String) -> Self {
        text(problem) { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
    }

    /// A folder; relative in a config file to the file's folder.
    static var folder: Self {
        var value = Self.text
        value.isPath = true
        return value
    }
}

extension SettingValue where Value == String? {
    /// An optional text: empty means none. `problem` names what is wrong with the text, or nil.
    static func optional(problem: @escaping @Sendable (String) -> String? = { _ in nil }) -> Self {
        Self(
            read: { text throws(Problem) in
                if text.isEmpty { return nil }
                if let message = problem(text) { throw Problem(description: message) }
                return text
            }, show: { $0 ?? "none" }, cleared: "")
    }

    /// A name, or `off` (or empty) for none; help shows none as `off`.
    static func nameOrOff() -> Self {
        Self(
            read: { text throws(Problem) in text.isEmpty || text == "off" ? nil : text },
            show: { $0 ?? "off" }, cleared: "off")
    }

    /// An optional file; relative in a config file to the file's folder.
    static var file: Self {
        var value = Self.optional()
        value.isPath = true
        return value
    }
}

extension SettingValue where Value == Int {
    /// A whole number within `range`.
    static func integer(_ range: ClosedRange<Int>, _ problem: String) -> Self {
        Self(
            read: { text throws(Problem) in
                guard let number = Int(text), range.contains(number) else { throw Problem(description: problem) }
                return number
            }, show: { "\($0)" })
    }
}

extension SettingValue where Value == Double {
    /// Seconds, more than 0 and at most `maximum`, fractions allowed; help shows 10, not 10.0.
    static func seconds(upTo maximum: Double, _ problem: String) -> Self {
        Self(
            read: { text throws(Problem) in
                guard let number = Double(text), number.isFinite, number > 0, number <= maximum else {
                    throw Problem(description: problem)
                }
                return number
            }, show: { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" })
    }
}

extension SettingValue where Value == Bool {
    /// A switch: on/true or off/false.
    static func onOff(_ problem: String) -> Self {
        Self(
            read: { text throws(Problem) in try ServerConfiguration.onOff(text, problem) }, show: { $0 ? "on" : "off" })
    }

    /// A switch whose flag takes no value (`--admin-public`); on/true or off/false elsewhere.
    static func presence(_ problem: String) -> Self {
        var value = onOff(problem)
        value.form = .presence
        return value
    }
}

extension SettingValue where Value: RawRepresentable<String> & Sendable {
    /// One of an enumeration's raw values.
    static func choice(_ problem: String) -> Self {
        Self(
            read: { text throws(Problem) in
                guard let choice = Value(rawValue: text) else { throw Problem(description: problem) }
                return choice
            }, show: { $0.rawValue })
    }
}

extension SettingValue where Value == SocketAddress? {
    /// A listener: ADDR:PORT, or off (or empty).
    static var listener: Self {
        Self(
            read: { text throws(Problem) in
                if text.isEmpty || text == "off" { return nil }
                do throws(SocketAddress.ParseError) {
                    return try SocketAddress(parsing: text)
                } catch { throw Problem(description: error.description) }
            }, show: { $0.map { "\($0)" } ?? "off" })
    }
}

extension SettingValue {
    /// A comma-separated list (a repeatable flag, a config file's list of strings), read whole
    /// by `read`; empty means none.
    static func list<Item>(
        _ read: @escaping @Sendable (String) throws(Problem) -> [Item], show: @escaping @Sendable (Item) -> String
    ) -> Self where Value == [Item] {
        Self(
            read: read, show: { $0.isEmpty ? "none" : $0.map(show).joined(separator: ",") }, form: .list, cleared: "")
    }
}

extension SettingValue {
    /// A JSON document read by `read` from a config file's value (relative paths from the
    /// folder given) and from the flag's or variable's JSON text (relative paths as given);
    /// help shows it by `show`.
    static func document(
        _ read: @escaping @Sendable (JSONValue, _ folder: String) throws(Problem) -> Value,
        show: @escaping @Sendable (Value) -> String
    ) -> Self {
        var value = Self(
            read: { text throws(Problem) in
                let parsed = JSONDocument.parse(Array(text.utf8))
                guard let root = parsed.root else {
                    throw Problem(description: "must be JSON: \(parsed.diagnostics.first?.message ?? "empty")")
                }
                return try read(root, "")
            }, show: show, form: .document, cleared: "null")
        value.readDocument = read
        return value
    }
}

extension SettingValue where Value == [IPNetwork] {
    /// A list of IPv4 or IPv6 networks (CIDR).
    static var networks: Self {
        list(
            { text throws(Problem) in
                guard let networks = IPNetwork.list(text) else {
                    throw Problem(description: "must be a list of IPv4 or IPv6 networks, like 17.0.0.0/8")
                }
                return networks
            }, show: \.description)
    }
}
