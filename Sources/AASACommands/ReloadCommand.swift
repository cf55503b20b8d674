import AASAFileCommands
import AASAServer
import AASASystem
import AASATransport
import ArgumentParser
import Foundation

/// `aasa-server reload --pid PID [--config FILE] [--admin ADDR:PORT] [--admin-token-file FILE]`:
/// SIGHUP to a running server, then its outcome from the admin listener's reload counters, so
/// that `systemctl reload` fails when the server refused the new files (README, "Install").
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Ask a running server to reload and wait for the outcome.",
        discussion: """
            Sends SIGHUP to PID, then reads aasa_reloads_total from the admin listener (found \
            from the same config file, AASA_* variables and flags as serve) until the reload \
            is counted. Exit 0 when every new file was taken, 1 when the reload was partial \
            (some sites kept their last good files) or refused, 2 when the server cannot be \
            asked. The diagnostics are in the server's log (journalctl -u aasa-server).
            """)

    @Option(help: "The running server's process id (systemd: $MAINPID).")
    var pid: Int32

    @Option(help: "The server's JSON config file (default: \(ServeCommand.defaultConfigFile) when it exists).")
    var config: String?

    @Option(help: "The server's admin listener, ADDR:PORT.")
    var admin: String?

    @Option(help: "The file with the admin listener's bearer token.")
    var adminTokenFile: String?

    @Option(help: "Seconds to wait for the outcome.")
    var timeout: Double = 60

    func run() throws {
        let (address, headers) = try adminEndpoint()
        let client = LoopbackHTTPClient(timeout: 5)
        let before = try counts(client, address, headers)
        do {
            try Posix.send(signal: SIGHUP, to: pid)
        } catch {
            StandardStreams.writeError("error: cannot signal process \(pid): \(error.reason)\n")
            throw CommandFailure.unreadable
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let after = try counts(client, address, headers)
            if let outcome = ReloadCounts.outcome(before: before, after: after) {
                switch outcome {
                case "ok":
                    StandardStreams.write("reloaded\n")
                    return
                case "partial":
                    StandardStreams.writeError(
                        "error: reload partly applied: some sites kept their last good files (see the server's log)\n")
                default:
                    StandardStreams.writeError(
                        "error: reload refused: the server kept its last good files (see the server's log)\n")
                }
                throw CommandFailure.invalid
            }
            Posix.pause(microseconds: 50_000)
        }
        StandardStreams.writeError("error: no reload was counted within \(timeout) s\n")
        throw CommandFailure.unreadable
    }

    /// Where the admin listener is (a wildcard address is asked on loopback) and the
    /// Authorization field its token needs.
    private func adminEndpoint() throws -> (SocketAddress, [(String, String)]) {
        var arguments: [String] = []
        if let config { arguments += ["--config", config] }
        if let admin { arguments += ["--admin", admin] }
        if let adminTokenFile { arguments += ["--admin-token-file", adminTokenFile] }
        let settings: ServerConfiguration
        do {
            (settings, _) = try ServeCommand.parse(arguments).resolveConfiguration()
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw CommandFailure.unreadable
        }
        guard var address = settings.admin else {
            StandardStreams.writeError("error: the admin listener is off; reload needs it to learn the outcome\n")
            throw CommandFailure.unreadable
        }
        if address.bytes.allSatisfy({ $0 == 0 }) {
            address =
                address.family == .ipv4
                ? .loopback(port: address.port) : (try? SocketAddress(parsing: "[::1]:\(address.port)")) ?? address
        }
        guard let tokenFile = settings.adminTokenFile else { return (address, []) }
        do {
            let token = try AdminToken(file: tokenFile)
            return (address, [("Authorization", "Bearer " + String(decoding: token.bytes, as: UTF8.self))])
        } catch {
            StandardStreams.writeError("error: \(error.description)\n")
            throw CommandFailure.unreadable
        }
    }

    private func counts(
        _ client: LoopbackHTTPClient, _ address: SocketAddress, _ headers: [(String, String)]
    ) throws -> [String: Int] {
        switch client.get("/metrics", from: address, headers: headers) {
        case .success(let response) where response.status == 200:
            return ReloadCounts.parse(String(decoding: response.body, as: UTF8.self))
        case .success(let response):
            StandardStreams.writeError("error: the admin listener at \(address) answered \(response.status)\n")
        case .failure(let failure):
            StandardStreams.writeError("error: the admin listener at \(address): \(failure.message)\n")
        }
        throw CommandFailure.unreadable
    }
}
