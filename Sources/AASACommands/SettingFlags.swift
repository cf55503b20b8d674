import AASAServer
import ArgumentParser

/// `serve`'s setting flags, read by the rows of `SettingGroup` rather than declared as
/// properties: argument-parser finds declared options by reflecting on a type, so a table of
/// settings cannot be options without faking that reflection. `serve` captures what its own
/// options do not take (`@Argument(parsing: .allUnrecognized)`) and reads it here, as
/// argument-parser reads options: `--flag value` or `--flag=value`, a repeatable flag once per
/// item, the last of a single-value flag winning; help shows the rows the same way
/// (`SettingHelp`).
struct SettingFlags {
    typealias Setting = ServerConfiguration.Setting

    /// The flags given, in the order first given: each setting with its text (a repeatable
    /// flag's values joined by commas, as a variable gives them).
    private(set) var given: [(setting: Setting, value: String)] = []

    static let byFlag = Dictionary(Setting.all.map { ($0.flag, $0) }, uniquingKeysWith: { first, _ in first })

    init() {}

    init(parsing arguments: [String]) throws(ValidationError) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw ValidationError("Unexpected argument '\(argument)'")
            }
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            let inline = argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
            guard let setting = Self.byFlag[String(name)] else {
                throw ValidationError("Unknown option '--\(name)'")
            }
            let value: String
            switch setting.form {
            case .presence:
                guard inline == nil else { throw ValidationError("The flag '--\(name)' takes no value") }
                value = "on"
            case .value, .list, .document:
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else {
                        throw ValidationError("Missing value for '--\(name) <\(setting.valueName)>'")
                    }
                    value = arguments[index]
                    index += 1
                }
            }
            add(setting, value)
        }
    }

    /// A single value replaces one given before; a repeatable flag's adds to them.
    private mutating func add(_ setting: Setting, _ value: String) {
        guard let earlier = given.firstIndex(where: { $0.setting.key == setting.key }) else {
            given.append((setting, value))
            return
        }
        given[earlier].value = setting.form == .list ? given[earlier].value + "," + value : value
    }
}
