import AASAFileCommands
import AASAServer
import ArgumentParser
import Foundation

/// `aasa-server serve [--config FILE] [--sites DIR] [--certs DIR] [--http ADDR:PORT]
/// [--https ADDR:PORT] [--admin ADDR:PORT] …` (docs/usage.md, "Serve"). Every setting but
/// `--config` comes from the tables of `SettingGroup`, one option group each.
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
            """)

    static let defaultConfigFile = "Config/aasa-server.json"

    @Option(
        help: ArgumentHelp(
            "A JSON config file, also AASA_CONFIG (default \(defaultConfigFile) when it exists).", valueName: "file"))
    var config: String?

    @OptionGroup(title: SettingGroup.sites.title) var sites: SettingOptions<SiteOptions>
    @OptionGroup(title: SettingGroup.listeners.title) var listeners: SettingOptions<ListenerOptions>
    @OptionGroup(title: SettingGroup.admin.title) var admin: SettingOptions<AdminOptions>
    @OptionGroup(title: SettingGroup.limits.title) var limits: SettingOptions<LimitOptions>
    @OptionGroup(title: SettingGroup.logging.title) var logs: SettingOptions<LogOptions>
    @OptionGroup(title: SettingGroup.acme.title) var acme: SettingOptions<ACMEOptions>
    @OptionGroup(title: SettingGroup.store.title) var store: SettingOptions<StoreOptions>
    @OptionGroup(title: SettingGroup.cdnWatch.title) var cdnWatch: SettingOptions<CDNWatchOptions>
    @OptionGroup(title: SettingGroup.googleWatch.title) var googleWatch: SettingOptions<GoogleWatchOptions>

    /// The flags given, with their settings.
    var flags: [(setting: ServerConfiguration.Setting, value: String)] {
        sites.given + listeners.given + admin.given + limits.given + logs.given + acme.given + store.given
            + cdnWatch.given + googleWatch.given
    }

    func run() throws {
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
