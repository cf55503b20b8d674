import AASALoop
import Foundation
import TestSupport
import Testing

@testable import AASACommands
@testable import AASAServer

/// `serve`'s settings are declared once (`SettingGroup`'s tables): each is reached the same way
/// by its flag, its `AASA_*` variable and its config key, is documented in docs/settings.md and
/// `serve --help`, and the three routes keep their order and name themselves in problems.
@Suite("serve's settings, declared once")
struct ServeSettingsTests {
    static let keys = ServerConfiguration.Setting.all.map(\.key)
    static let configPath = "/etc/aasa/aasa-server.json"

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The example as a config file writes it: a number, a boolean, a list of strings, a
    /// document as it is or a string.
    static func json(_ setting: ServerConfiguration.Setting) throws -> String {
        let example = setting.example
        if Double(example) != nil || setting.form == .document { return example }
        if ["on", "off"].contains(example) { return example == "on" ? "true" : "false" }
        let value: Any = setting.form == .list ? example.split(separator: ",").map(String.init) : example
        return String(
            decoding: try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed), as: UTF8.self)
    }

    /// The flags that give the example: a repeatable flag once per item, a flag without a value alone.
    static func flags(_ setting: ServerConfiguration.Setting) -> [String] {
        switch setting.form {
        case .value, .document: ["--" + setting.flag, setting.example]
        case .list: setting.example.split(separator: ",").flatMap { ["--" + setting.flag, String($0)] }
        case .presence: ["--" + setting.flag]
        }
    }

    @Test("the flag, the variable and the config key give the example the same effect", arguments: keys)
    func routes(key: String) throws {
        let setting = try #require(ServerConfiguration.Setting.named(key))
        let folder = try TemporaryFolder()
        let empty = try folder.write("empty.json", "{}")
        let (byFlag, _) = try ServeCommand.parse(["--config", empty] + Self.flags(setting))
            .resolveConfiguration(environment: [:])
        var byVariable = ServerConfiguration()
        try byVariable.applyEnvironment([setting.environment: setting.example])
        // A dotted key is a member of its object: `{"limits": {"headerBytes": 8192}}`.
        let names = key.split(separator: ".")
        let member = names.reversed().reduce(try Self.json(setting)) { inner, name in "{\"\(name)\": \(inner)}" }
        var byKey = ServerConfiguration()
        try byKey.applyFile(contents: Array(member.utf8), path: Self.configPath)
        let (byInlineFlag, _) = try ServeCommand.parse(
            ["--config", empty]
                + (setting.form == .presence ? ["--" + setting.flag] : ["--\(setting.flag)=\(setting.example)"])
        ).resolveConfiguration(environment: [:])
        #expect(byFlag != ServerConfiguration(), "\(key): the example must differ from the default")
        #expect(byVariable == byFlag, "\(setting.environment)")
        #expect(byKey == byFlag, "\(key)")
        #expect(byInlineFlag == byFlag || setting.form == .list, "--\(setting.flag)=")
    }

    @Test("no two settings share a key, a flag or a variable")
    func unique() {
        let settings = ServerConfiguration.Setting.all
        for names in [
            settings.map(\.key), settings.map(\.flag) + ["config"], settings.map(\.environment) + ["AASA_CONFIG"],
        ] {
            #expect(Set(names).count == names.count, "\(names)")
        }
    }

    @Test("every setting's flag, key and variable are in docs/settings.md, and its flag and help in serve --help")
    func documented() throws {
        let settings = try String(
            contentsOf: BinaryRunner.packageRoot.appendingPathComponent("docs/settings.md"), encoding: .utf8)
        let output = try BinaryRunner.run(["serve", "--help"])
        #expect(output.status == 0)
        let help = Self.collapsed(output.stdout)
        for setting in ServerConfiguration.Setting.all {
            let flag = "--" + setting.flag
            #expect(settings.contains("`\(flag)`") || settings.contains("`\(flag) "), "docs/settings.md lacks \(flag)")
            #expect(settings.contains("`\(setting.key)`"), "docs/settings.md lacks \(setting.key)")
            #expect(settings.contains("`\(setting.environment)`"), "docs/settings.md lacks \(setting.environment)")
            let option = setting.form == .presence ? flag : "\(flag) <\(setting.valueName)>"
            #expect(help.contains("\(option) \(Self.collapsed(setting.help))"), "serve --help: \(option)")
        }
        for group in SettingGroup.allCases {
            #expect(help.contains(group.title.uppercased() + ":"), "serve --help: \(group.title)")
        }
    }

    @Test("a flag wins over its variable, a variable over the config file (AASA_CONFIG names it)")
    func precedence() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("aasa.json", #"{"workers": 2, "logFormat": "json", "cdnWatchRate": 5}"#)
        let environment = ["AASA_CONFIG": file, "AASA_WORKERS": "3", "AASA_CDN_WATCH_RATE": "7"]
        let (settings, read) = try ServeCommand.parse(["--cdn-watch-rate", "9"])
            .resolveConfiguration(environment: environment)
        #expect(read == file)
        #expect(settings.logFormat == .json && settings.workers == 3 && settings.cdnWatch.ratePerMinute == 9)
    }

    @Test("timeouts and limits are objects in the config file, or dotted keys; an unknown key names the known ones")
    func timeoutsAndLimits() throws {
        var settings = ServerConfiguration()
        try settings.applyFile(
            contents: Array(
                #"{"timeouts": {"keepAlive": 5, "cdnFetch": 2.5}, "limits": {"headerCount": 32.0}, "limits.headerBytes": 8e3}"#
                    .utf8),
            path: Self.configPath)
        #expect(settings.timeouts.keepAlive == 5 && settings.cdnWatch.fetchTimeout == 2.5)
        #expect(settings.timeouts.handshake == 10 && settings.limits.headerCount == 32)
        #expect(settings.limits.headerBytes == 8000 && settings.limits.requestLineBytes == 8192)
        for (text, message) in [
            (
                #"{"timeouts": {"idle": 5}}"#,
                // The known ones from the rows: a new timeout adds itself.
                #"1:15: unknown setting "timeouts.idle" (known: "#
                    + ServerConfiguration.Setting.members(of: "timeouts").map(\.key).joined(separator: ", ") + ")"
            ),
            (
                #"{"limits": {"bodyBytes": 5}}"#,
                #"unknown setting "limits.bodyBytes" (known: limits.requestLineBytes, limits.headerBytes, "#
            ),
            (#"{"limits": 5}"#, "1:2: limits must be an object of limits.requestLineBytes, "),
            (#"{"timeouts": {"write": 0}}"#, "timeouts.write must be between 0 and 3600 seconds"),
            (#"{"timeouts": {"write": "nan"}}"#, "timeouts.write must be between 0 and 3600 seconds"),
            (#"{"limits": {"headerCount": 1.5}}"#, "limits.headerCount must be a whole number from 1 to 1048576"),
            (#"{"worker": 2}"#, #"1:2: unknown setting "worker" (known: sites, certs,"#),
            (#"{"acmeIssuers": [{"dir": "x"}]}"#, #"1:2: acmeIssuers[0]: unknown key "dir""#),
        ] {
            var failing = ServerConfiguration()
            let error = #expect(throws: ServerConfiguration.Problem.self) {
                try failing.applyFile(contents: Array(text.utf8), path: Self.configPath)
            }
            #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
        }
    }

    @Test("a bad value names where it came from: the flag, the variable, or the config file's line and column")
    func problems() throws {
        let folder = try TemporaryFolder()
        let empty = try folder.write("empty.json", "{}")
        let cases: [([String], [String: String], String)] = [
            (["--config", empty, "--workers", "x"], [:], "--workers: workers must be 0 (one per core) to 1024"),
            (["--config", empty], ["AASA_WORKERS": "x"], "AASA_WORKERS: workers must be 0 (one per core) to 1024"),
            (
                ["--config", try folder.write("bad.json", #"{"workers": "x"}"#)], [:],
                "bad.json:1:2: workers must be 0 (one per core) to 1024"
            ),
            (["--config", empty, "--admin-host", "a b"], [:], "--admin-host: admin host names are DNS names"),
            (["--config", empty], ["AASA_HTTP": "nowhere"], "AASA_HTTP: \"nowhere\" is not ADDRESS:PORT"),
            (
                ["--config", empty, "--limits-header-count", "0"], [:],
                "--limits-header-count: limits.headerCount must be a whole number from 1 to 1048576"
            ),
            (["--config", empty], ["AASA_TIMEOUTS_WRITE": "-1"], "AASA_TIMEOUTS_WRITE: timeouts.write must be"),
            (["--config", empty, "--acme-issuers", "[{"], [:], "--acme-issuers: must be JSON"),
        ]
        for (arguments, environment, message) in cases {
            let command = try ServeCommand.parse(arguments)
            let error = #expect(throws: ServerConfiguration.Problem.self) {
                try command.resolveConfiguration(environment: environment)
            }
            #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
        }
    }

    @Test("a flag no row declares, a stray word or a missing value is refused when parsing")
    func unknownFlags() {
        for arguments in [
            ["--workerz", "2"], ["serve"], ["--workers"], ["--workers", "--http", "off"], ["--admin-public=on"],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") { try ServeCommand.parse(arguments) }
        }
    }

    @Test("a single-value flag given twice keeps the last; a repeatable one keeps every item")
    func repeated() throws {
        let folder = try TemporaryFolder()
        let empty = try folder.write("empty.json", "{}")
        let (settings, _) = try ServeCommand.parse([
            "--config", empty, "--workers", "2", "--trusted-proxy", "10.0.0.0/8", "--workers=3",
            "--trusted-proxy=192.168.0.0/16",
        ]).resolveConfiguration(environment: [:])
        #expect(
            settings.workers == 3 && settings.trustedProxies.map(\.description) == ["10.0.0.0/8", "192.168.0.0/16"])
    }

    @Test("docs/settings.md's settings reference is the one the rows make (make settings-reference)")
    func reference() throws {
        let docs = BinaryRunner.packageRoot.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        let holding = try names.filter {
            try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8).contains(SettingReference.begin)
        }
        #expect(holding == ["settings.md"], "docs/settings.md alone holds the settings reference")
        let settings = try String(contentsOf: docs.appendingPathComponent("settings.md"), encoding: .utf8)
        let region = try #require(
            settings.components(separatedBy: SettingReference.begin).last?
                .components(separatedBy: SettingReference.end).first)
        #expect(
            region.trimmingCharacters(in: .newlines) == SettingReference.markdown,
            "docs differ from the rows: run make settings-reference")
        let output = try BinaryRunner.run(["serve", "--settings-reference"])
        #expect(output.status == 0 && output.stdout == SettingReference.markdown + "\n")
    }

    @Test(
        "a row's refusal stops start-up; settings that go together pass",
        arguments: [
            (["AASA_ADMIN": "0.0.0.0:9090"], "is not a loopback address"),
            (["AASA_ADMIN_PUBLIC": "on"], "--admin-public needs --admin-token-file"),
            (["AASA_ACME": "on"], "--acme on needs an HTTPS listener"),
            (["AASA_ACME": "on", "AASA_HTTPS": "127.0.0.1:8443", "AASA_HTTP": "off"], nil),
            (
                [
                    "AASA_ACME": "on", "AASA_HTTPS": "127.0.0.1:8443", "AASA_ACME_PROFILE": "classic",
                    "AASA_ACME_ISSUERS": #"[{"directory": "https://ca.example/directory"}]"#,
                ], "with acmeIssuers give them per issuer"
            ),
            (["AASA_STORE_KEY_FILE": "/etc/aasa/store.key"], "--store-key-file applies to a PostgreSQL store"),
            (["AASA_ADMIN": "0.0.0.0:9090", "AASA_ADMIN_PUBLIC": "on", "AASA_ADMIN_TOKEN_FILE": "/run/token"], nil),
        ])
    func refusals(environment: [String: String], refusal: String?) throws {
        var settings = ServerConfiguration()
        try settings.applyEnvironment(environment)
        let found = ServerLaunch.refusal(settings)
        #expect(found?.contains(refusal ?? "\u{0}") ?? (refusal == nil), "\(found ?? "none")")
    }
}
