import Foundation
@preconcurrency import Glibc
import TestSupport

/// The real `aasa-server serve` on a free loopback port, stopped with SIGTERM.
final class RunningServer {
    let process = Process()
    let port: Int
    /// The server's stdout and stderr go to files here, read on demand: files rather than
    /// pipes with readability handlers, whose dispatch sources crashed the test runner's
    /// libdispatch now and then when processes ended (`_dispatch_event_loop_drain`).
    private let logs: TemporaryFolder
    private let stdoutFile: String
    private let stderrFile: String

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the server with `arguments` after `serve` (plus `--http 127.0.0.1:0` unless
    /// given) in `folder`, and waits until it says where it listens and accepts connections there. With `descriptorLimit`
    /// it runs under `ulimit -n` (through /bin/sh, which then execs it); `environment` adds to
    /// the test runner's. With `watchLimit` it runs in a user namespace of its own whose inotify
    /// watch limit is that (`UnwatchedFoldersTests.namespaceWorks`): the machine's stays as it is.
    /// With `network` (shell commands, `NetworkNamespace.setup`) it runs in a network namespace of
    /// its own set up by them, reached from the test through `NetworkNamespace`: not from here,
    /// so its listener's readiness is left to the test.
    init(
        in folder: URL, _ arguments: [String], descriptorLimit: Int? = nil, environment: [String: String] = [:],
        watchLimit: Int? = nil, network: String? = nil
    ) throws {
        let http = arguments.contains("--http") ? [] : ["--http", "127.0.0.1:0"]
        let admin = arguments.contains("--admin") ? [] : ["--admin", "127.0.0.1:0"]
        let serve = ["serve"] + http + admin + arguments
        if let network {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments =
                [
                    "--user", "--map-root-user", "--net", "/bin/sh", "-c", "\(network) && exec \"$0\" \"$@\"",
                    BinaryRunner.binary.path,
                ] + serve
        } else if let watchLimit {
            // unshare(1) execs the shell, which execs the server: its pid is the process's.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments =
                [
                    "--user", "--map-root-user", "/bin/sh", "-c",
                    "echo \(watchLimit) > /proc/sys/user/max_inotify_watches && exec \"$0\" \"$@\"",
                    BinaryRunner.binary.path,
                ] + serve
        } else if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", BinaryRunner.binary.path] + serve
        } else {
            process.executableURL = BinaryRunner.binary
            process.arguments = serve
        }
        process.currentDirectoryURL = folder
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        logs = try TemporaryFolder()
        stdoutFile = try logs.write("stdout", "")
        stderrFile = try logs.write("stderr", "")
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutFile))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrFile))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try out.close()
        try err.close()
        let stderrFile = self.stderrFile
        let events = { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }
        // Generous: the loop ends as soon as the server says where it listens (or exits), and
        // a build under a sanitizer loads 10,000 sites several times slower.
        let deadline = Date().addingTimeInterval(90)
        var found: Int?
        while Date() < deadline && found == nil && process.isRunning {
            let text = events()
            for scheme in ["http", "https"] {
                // The text event, or the JSON one (`--log-format json`).
                for event in ["info listening on", #""message":"listening on"#] {
                    if found == nil, let range = text.range(of: "\(event) \(scheme)://127.0.0.1:") {
                        found = Int(text[range.upperBound...].prefix { $0.isNumber })
                    }
                }
            }
            usleep(20_000)
        }
        guard let found else {
            process.terminate()
            throw StartFailure(
                description: "the server did not start: \(events())")
        }
        port = found
        // The log line names the port; readiness is a connection the listener accepts.
        while network == nil && !Self.accepts(port: found) {
            guard Date() < deadline, process.isRunning else {
                process.terminate()
                throw StartFailure(description: "the server named port \(found) but does not accept on it")
            }
            usleep(20_000)
        }
    }

    /// Whether a TCP connection to the loopback port succeeds now.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    var errors: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    /// The admin listener's port, once it has said where it listens.
    var adminPort: Int? {
        guard let range = errors.range(of: "admin listening on http://127.0.0.1:") else { return nil }
        return Int(errors[range.upperBound...].prefix { $0.isNumber })
    }
    var accessLog: String { (try? String(contentsOfFile: stdoutFile, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status (or nil if it did not stop in time).
    func stop(timeout: TimeInterval = 15) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
