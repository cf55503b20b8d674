import AASASites
import AASASystem
import ArgumentParser

/// `aasa-server` where the server cannot build (no epoll, OpenSSL or zlib: macOS, where iOS
/// developers work): the commands that read files only (README, "Install").
public struct PortableCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "aasa-server",
        abstract: "Validate, match and compare apple-app-site-association and assetlinks.json files.",
        version: "aasa-server \(Version.current)",
        subcommands: [ValidateCommand.self, MatchCommand.self, DiffCommand.self])

    public init() {}

    public static func run() -> Never { CommandRunner.run(Self.self) }
}
