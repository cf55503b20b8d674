import ArgumentParser
import Testing

@testable import AASAFileCommands

/// The file commands refuse contradictory or missing arguments before reading anything (exit
/// 2 through `CommandRunner`), and take the combinations the README shows.
@Suite("file commands' arguments")
struct CommandArgumentsTests {
    @Test(
        "refused",
        arguments: [
            ["validate"], ["validate", "--json", "--format", "sarif", "x"], ["validate", "--format", "yaml", "x"],
            ["validate", "--cacert", "/nonexistent/ca.pem", "x"],
            ["match", "https://example.com/"], ["match", "--file", "f", "--sites", "s", "https://example.com/"],
            ["match", "--file", "f"],
            ["diff", "old"], ["diff", "old", "new", "--cdn"], ["diff", "old", "new", "--against-live", "example.com"],
        ])
    func refused(_ arguments: [String]) {
        #expect(throws: (any Error).self, "\(arguments)") { try PortableCommand.parseAsRoot(arguments) }
    }

    @Test(
        "taken",
        arguments: [
            ["validate", "x"], ["validate", "--json", "--format", "json", "x"],
            ["validate", "--format", "github", "x"],
            ["validate", "--list-codes"], ["match", "--file", "f", "https://example.com/"], ["diff", "old", "new"],
        ])
    func taken(_ arguments: [String]) throws {
        _ = try PortableCommand.parseAsRoot(arguments)
    }
}
