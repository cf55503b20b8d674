import AASAFileCommands
import AASAServer
import ArgumentParser
import Foundation

/// `aasa-server serve [--config FILE] [--sites DIR] [--certs DIR] [--http ADDR:PORT]
/// [--https ADDR:PORT] [--admin ADDR:PORT] …` (docs/usage.md, "Serve"). Every setting but
/// `--config` comes from the tables of `SettingGroup`: its flag read by `SettingFlags`, its
/// help by `SettingHelp`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the association files of a sites directory.",
        discussion: """
            Settings come from built-in defaults, then the config file (--config, else \
            Config/aasa-server.json when present), then AASA_* environment variables, then \
            flags. Every site is validated first: any error stops start-up with every \
            diagnostic printed (exit 1), unless --invalid-sites skip, which serves the valid \
            sites and reports the invalid ones as a reload does. SIGHUP reloads the sites; SIGTERM or SIGINT stops \
            gracefully (exit 0). The access log goes to stdout, events to stderr. Listening sockets passed by \
            systemd (LISTEN_FDS, sd_listen_fds(3)) serve the listener with the same address, so a restart \
            refuses no connection; one that matches no listener stops start-up (exit 2).

            """ + "\n" + SettingHelp.text)

    static let defaultConfigFile = "Config/aasa-server.json"

    @Option(
        help: ArgumentHelp(
            "A JSON config file, also AASA_CONFIG (default \(defaultConfigFile) when it exists).", valueName: "file"))
    var config: String?

    /// Prints docs/settings.md's settings reference (`make settings-reference`) and stops.
    @Flag(help: .hidden) var settingsReference = false

    /// The setting flags, which `validate` reads by the rows (`SettingFlags`).
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The settings' flags, listed above by group.", valueName: "setting"),
        completion: .list(ServerConfiguration.Setting.all.map { "--" + $0.flag }))
    var settingArguments: [String] = []

    /// The flags given, with their settings.
    var flags: [(setting: ServerConfiguration.Setting, value: String)] {
        (try? SettingFlags(parsing: settingArguments).given) ?? []
    }

    func validate() throws {
        _ = try SettingFlags(parsing: settingArguments)
    }

    func run() throws {
        if settingsReference {
            print(SettingReference.markdown)
            return
        }
        let settings: ServerConfiguration
        let configFile: String?
        do {
            (settings, configFile) = try resolveConfiguration()
        } catch {
            StandardStreams.writeError("error: \(error.description)\n")
            throw CommandFailure.unreadable
        }
        let code = ServerLaunch.run(settings, configFile: configFile)
        if code != 0 { throw CommandFailure(code: code) }
    }

    /// The settings from the config file, the environment and the flags, in that order, each
    /// over the one before, and the config file read (its absolute path), if any.
    func resolveConfiguration(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ServerConfiguration.Problem) -> (ServerConfiguration, String?) {
        var settings = ServerConfiguration()
        var file = config ?? environment["AASA_CONFIG"]
        if file == nil && FileManager.default.fileExists(atPath: Self.defaultConfigFile) {
            file = Self.defaultConfigFile
        }
        if let file { try settings.applyFile(at: file) }
        try settings.applyEnvironment(environment)
        for (setting, value) in flags { try settings.apply(setting, value, source: "--" + setting.flag) }
        return (settings, file.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    }
}
