import AASAServer
import ArgumentParser

/// One group of `serve`'s settings as options (`@OptionGroup(title:)`), made from the group's
/// table (`SettingGroup`) instead of one declared property each: a setting is declared once.
/// The parser finds a type's options by reflecting on it, so this type shows it one option per
/// setting under the setting's key, and decodes them by the same keys.
struct SettingOptions<Group: SettingOptionGroup>: ParsableArguments, CustomReflectable {
    /// The flags given, in the group's order: each setting with its text (a repeatable flag's
    /// values joined by commas, as a variable gives them).
    private(set) var given: [(setting: ServerConfiguration.Setting, value: String)] = []

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SettingKey.self)
        for setting in Group.group.settings {
            let key = SettingKey(stringValue: setting.key)
            switch setting.form {
            case .value:
                if let value = try container.decode(Option<String?>.self, forKey: key).wrappedValue {
                    given.append((setting, value))
                }
            case .list:
                let values = try container.decode(Option<[String]>.self, forKey: key).wrappedValue
                if !values.isEmpty { given.append((setting, values.joined(separator: ","))) }
            case .presence:
                if try container.decode(Flag<Bool>.self, forKey: key).wrappedValue { given.append((setting, "on")) }
            }
        }
    }

    var customMirror: Mirror {
        Mirror(
            self, children: Group.group.settings.map { (label: $0.key, value: Self.option(for: $0)) },
            displayStyle: .struct)
    }

    /// The setting's option, as `@Option` or `@Flag` would declare it.
    private static func option(for setting: ServerConfiguration.Setting) -> Any {
        let name = NameSpecification.customLong(setting.flag)
        let help = ArgumentHelp(setting.help, valueName: setting.valueName)
        switch setting.form {
        case .value: return Option<String?>(name: name, help: help)
        case .list: return Option<[String]>(wrappedValue: [], name: name, help: help)
        case .presence: return Flag<Bool>(wrappedValue: false, name: name, help: help)
        }
    }

    private struct SettingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
