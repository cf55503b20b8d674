import AssociationKit

extension ServerConfiguration {
    /// One setting of `serve`, declared once in the table of its group (`SettingGroup`): its
    /// config key, from which its flag (`acmeOnDemandRate`: `--acme-on-demand-rate`) and its
    /// variable (`AASA_ACME_ON_DEMAND_RATE`) follow, how its text is read and checked, where
    /// it lands in the configuration, what it refuses together with other settings, and its
    /// help. A dotted key is a member of a config file's object (`limits.headerBytes` is
    /// `{"limits": {"headerBytes": …}}`, flag `--limits-header-bytes`, variable
    /// `AASA_LIMITS_HEADER_BYTES`). `serve`'s options and help, the config file's keys, the
    /// environment and docs/settings.md's settings reference all come from these tables
    /// (docs/ARCHITECTURE.md, "Where new code goes").
    public struct Setting: Sendable {
        /// How the flag takes the value: one value, a repeatable flag for a list (comma-separated
        /// in a variable, a list of strings in a config file), or a flag without a value that
        /// turns the setting on, or a JSON document (a list of objects: the config file's value
        /// as it is, the flag's and the variable's as JSON text).
        public enum Form: Sendable { case value, list, presence, document }

        /// The config file's key.
        public let key: String
        /// The flag's long name, without the dashes.
        public let flag: String
        /// The `AASA_*` environment variable.
        public let environment: String
        /// The value's name in help: `--workers <n>`.
        public let valueName: String
        public let form: Form
        /// A value unlike the default, which the settings test gives by every route.
        public let example: String
        /// The help line without its default.
        public let summary: String
        /// The default in help's words where the value's own would mislead (nil: the value's).
        let defaultText: String?
        let isPath: Bool
        let cleared: String
        let store: @Sendable (inout ServerConfiguration, String) throws(Problem) -> Void
        /// A document's reader for a config file's value, its relative paths from `folder`.
        let storeDocument: (@Sendable (inout ServerConfiguration, JSONValue, _ folder: String) throws(Problem) -> Void)?
        let shown: @Sendable (ServerConfiguration) -> String
        /// Why this setting, with the others, may not start a server (nil: it may); checked
        /// once every source is read, before anything else (`ServerLaunch.refusal`).
        let refusal: (@Sendable (ServerConfiguration) -> String?)?

        init<Value>(
            _ key: String, _ field: WritableKeyPath<ServerConfiguration, Value> & Sendable,
            _ value: SettingValue<Value>, flag: String? = nil, valueName: String, example: String, help: String,
            defaultText: String? = nil, refuses refusal: (@Sendable (ServerConfiguration) -> String?)? = nil
        ) {
            self.key = key
            self.flag = flag ?? Self.words(of: key).joined(separator: "-")
            environment = "AASA_" + Self.words(of: key).joined(separator: "_").uppercased()
            self.valueName = valueName
            form = value.form
            self.example = example
            summary = help
            self.defaultText = defaultText
            isPath = value.isPath
            cleared = value.cleared
            store = { configuration, text throws(Problem) in configuration[keyPath: field] = try value.read(text) }
            if let read = value.readDocument {
                storeDocument = { configuration, document, folder throws(Problem) in
                    configuration[keyPath: field] = try read(document, folder)
                }
            } else {
                storeDocument = nil
            }
            shown = { value.show($0[keyPath: field]) }
            self.refusal = refusal
        }

        /// The help line, its default taken from `ServerConfiguration()`, so it cannot drift
        /// from what `serve` uses: inside a closing parenthesis, else before the first `;`
        /// (what follows is a note), else at the end.
        public var help: String {
            let shownDefault = "default " + defaultShown
            if summary.hasSuffix(")") { return "\(summary.dropLast()); \(shownDefault))." }
            guard let note = summary.firstIndex(of: ";") else { return "\(summary) (\(shownDefault))." }
            return "\(summary[..<note]) (\(shownDefault))\(summary[note...])."
        }

        /// The default as help and docs/settings.md's settings reference show it.
        public var defaultShown: String { defaultText ?? shown(ServerConfiguration()) }

        /// Every setting, in help's order.
        public static let all = SettingGroup.allCases.flatMap(\.settings)

        /// The setting of a config key.
        public static func named(_ key: String) -> Setting? { byKey[key] }

        /// The first of a key declared twice, which the settings test refuses.
        private static let byKey = Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

        /// The settings of a config file's object: `limits` has `limits.headerBytes` and the others.
        static func members(of object: String) -> [Setting] { all.filter { $0.key.hasPrefix(object + ".") } }

        /// A camel-case, dotted key's words: `acmeEabKid` is acme, eab, kid; `limits.headerBytes`
        /// is limits, header, bytes; a binary unit is one word (`certificateCacheMiB` is
        /// certificate, cache, mib).
        private static func words(of key: String) -> [String] {
            key.reduce(into: [""]) { words, character in
                if character == "." {
                    words.append("")
                    return
                }
                let unit = ["mi", "ki", "gi"].contains(words[words.count - 1]) && character == "B"
                if character.isUppercase && !unit { words.append("") }
                words[words.count - 1] += character.lowercased()
            }
        }
    }
}
