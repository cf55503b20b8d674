import ArgumentParser

/// Runs a root command with the exit codes the README promises for every command: 0
/// success, valid or matched; 1 invalid or not matched; 2 a usage error or unreadable input.
package enum CommandRunner {
    /// ArgumentParser exits 64 on a usage error; the README promises 2.
    package static func run(_ root: any ParsableCommand.Type) -> Never {
        var command: any ParsableCommand
        do {
            command = try root.parseAsRoot(nil)
        } catch {
            if root.exitCode(for: error) == .success { root.exit(withError: error) }  // --help, --version
            StandardStreams.writeError(root.fullMessage(for: error) + "\n")
            exitProcess(2)
        }
        do {
            try command.run()
            exitProcess(0)
        } catch let failure as CommandFailure {
            exitProcess(failure.code)
        } catch {
            // `serve --help` and the like reach here as a help request from the parser.
            if root.exitCode(for: error) == .success { root.exit(withError: error) }
            StandardStreams.writeError(root.fullMessage(for: error) + "\n")
            exitProcess(2)
        }
    }
}
