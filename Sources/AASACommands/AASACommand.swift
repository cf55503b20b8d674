import AASASites
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

    /// ArgumentParser exits 64 on a usage error; the README promises 2 for every command.
    public static func run() -> Never {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }  // --help, --version
            StandardStreams.writeError(fullMessage(for: error) + "\n")
            exitProcess(2)
        }
        do {
            try command.run()
            exitProcess(0)
        } catch let failure as CommandFailure {
            exitProcess(failure.code)
        } catch {
            // `serve --help` and the like reach here as a help request from the parser.
            if exitCode(for: error) == .success { exit(withError: error) }
            StandardStreams.writeError(fullMessage(for: error) + "\n")
            exitProcess(2)
        }
    }
}
