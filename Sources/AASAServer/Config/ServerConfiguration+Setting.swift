extension ServerConfiguration {
    /// One setting of `serve`, declared once in the table of its group (`SettingGroup`): its
    /// config key, from which its flag (`acmeOnDemandRate`: `--acme-on-demand-rate`) and its
    /// variable (`AASA_ACME_ON_DEMAND_RATE`) follow, how its text is read and checked, where
    /// it lands in the configuration and its help. `serve`'s options and help, the config
    /// file's keys and the environment all come from these tables (docs/ARCHITECTURE.md,
    /// "Where new code goes").
    public struct Setting: Sendable {
        /// How the flag takes the value: one value, a repeatable flag for a list (comma-separated
        /// in a variable, a list of strings in a config file), or a flag without a value that
        /// turns the setting on.
        public enum Form: Sendable { case value, list, presence }

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
        let summary: String
        /// The default in help's words where the value's own would mislead (nil: the value's).
        let defaultText: String?
        let isPath: Bool
        let cleared: String
        let store: @Sendable (inout ServerConfiguration, String) throws(Problem) -> Void
        let shown: @Sendable (ServerConfiguration) -> String

        init<Value>(
            _ key: String, _ field: WritableKeyPath<ServerConfiguration, Value> & Sendable,
            _ value: SettingValue<Value>, flag: String? = nil, valueName: String, example: String, help: String,
            defaultText: String? = nil
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
            shown = { value.show($0[keyPath: field]) }
        }

        /// The help line, its default taken from `ServerConfiguration()`, so it cannot drift
        /// from what `serve` uses: inside a closing parenthesis, else before the first `;`
        /// (what follows is a note), else at the end.
        public var help: String {
            let shownDefault = "default " + (defaultText ?? shown(ServerConfiguration()))
            if summary.hasSuffix(")") { return "\(summary.dropLast()); \(shownDefault))." }
            guard let note = summary.firstIndex(of: ";") else { return "\(summary) (\(shownDefault))." }
            return "\(summary[..<note]) (\(shownDefault))\(summary[note...])."
        }

        /// Every setting, in help's order.
        public static let all = SettingGroup.allCases.flatMap(\.settings)

        /// The setting of a config key.
        public static func named(_ key: String) -> Setting? { byKey[key] }

        /// The first of a key declared twice, which the settings test refuses.
        private static let byKey = Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

        /// A camel-case key's words: `acmeEabKid` is acme, eab, kid; a binary unit is one word
        /// (`certificateCacheMiB` is certificate, cache, mib).
        private static func words(of key: String) -> [String] {
            key.reduce(into: [""]) { words, character in
                let unit = ["mi", "ki", "gi"].contains(words[words.count - 1]) && character == "B"
                if character.isUppercase && !unit { words.append("") }
                words[words.count - 1] += character.lowercased()
            }
        }
    }
}
