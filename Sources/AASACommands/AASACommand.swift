import AASAFileCommands
import AASASites
import AASASystem
import ArgumentParser

/// The `aasa-server` command and its subcommands (README).
/// Exit codes everywhere: 0 success/valid/matched, 1 invalid or not matched, 2 usage error
/// or unreadable input.
public struct AASACommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "aasa-server",
        abstract: "Serve, validate and test apple-app-site-association and assetlinks.json files.",
        version: "aasa-server \(Version.current)",
        subcommands: [
            ServeCommand.self, ValidateCommand.self, MatchCommand.self, DiffCommand.self, CheckAppCommand.self,
            ProbeCommand.self, ReloadCommand.self, UnsignCommand.self,
        ])

    public init() {}

    /// Installs the services the file commands take from OpenSSL and the HTTPS client, then
    /// parses and runs.
    public static func run() -> Never {
        FileCommandServices.install()
        CommandRunner.run(Self.self)
    }
}
