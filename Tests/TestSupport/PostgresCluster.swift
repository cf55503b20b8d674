import Foundation
@preconcurrency import Glibc
import Synchronization

/// A throwaway PostgreSQL cluster from Debian's `postgresql` package: initdb(1) in a temporary
/// folder, the server on a free loopback port with its socket in that folder, password
/// authentication over TCP (scram-sha-256) so the password path is the one tested. Run as
/// `nobody` when the tests run as root (as CI does: the server refuses root). A small shell
/// keeps the server: `stop()` ends it and keeps the data, for `start()`; this object going, or
/// the test process ending by any means, ends it and removes the folder, so no cluster is
/// left behind.
public final class PostgresCluster: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The newest `/usr/lib/postgresql/N/bin` with initdb and postgres (Debian's layout).
    public static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap { Int($0) }.sorted().reversed().map { "\(root)/\($0)/bin" }.first {
            FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
                && FileManager.default.isExecutableFile(atPath: $0 + "/postgres")
        }
    }()

    public static var isInstalled: Bool { binaries != nil }

    /// `nobody` when running as root (a user the server accepts), nil otherwise.
    static let user: (name: String, uid: uid_t, gid: gid_t)? = geteuid() == 0 ? ("nobody", 65534, 65534) : nil

    public let folder: String
    public let port: Int
    public let password = "pw-\(UInt32.random(in: .min ... .max))"
    private let bin: String
    private let server = Mutex<Process?>(nil)

    public init() throws {
        guard let bin = Self.binaries else { throw Failure(description: "PostgreSQL is not installed") }
        self.bin = bin
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let listening = try LoopbackSocket.listen()
        port = listening.port
        close(listening.fd)
        let passwordFile = folder + "/password"
        try Data(password.utf8).write(to: URL(fileURLWithPath: passwordFile))
        if let user = Self.user {
            for path in [folder, passwordFile] { chown(path, user.uid, user.gid) }
        }
        try Self.run(
            [
                bin + "/initdb", "-D", folder + "/data", "-U", "postgres", "--auth-local=trust",
                "--auth-host=scram-sha-256", "--pwfile=" + passwordFile, "-E", "UTF8", "--no-locale", "--no-sync",
            ],
            asUser: true)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A URI for `database` with the password in it, as a deployment would write one.
    public func uri(_ database: String = "postgres", parameters: String = "connect_timeout=3") -> String {
        "postgresql://postgres:\(password)@127.0.0.1:\(port)/\(database)?\(parameters)"
    }

    /// Starts the server (again) and waits until it accepts connections. The shell around it
    /// watches, five times a second, for this process's end (then it removes the folder) and
    /// for `stop()`'s mark (then it keeps the data): no pipe, since a pipe's end inherited by
    /// another test's child would keep it open.
    public func start() throws {
        let script = """
            "$1/postgres" -D "$2/data" -p "$3" -k "$2" -c listen_addresses=127.0.0.1 -c fsync=off \\
                -c max_connections=300 >>"$2/server.log" 2>&1 </dev/null &
            pid=$!
            while [ -d "/proc/$4" ] && [ ! -e "$2/stop" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
            kill -INT "$pid" 2>/dev/null
            wait "$pid"
            if [ -e "$2/stop" ]; then rm -f "$2/stop"; else rm -rf "$2"; fi
            """
        let process = Process()
        Self.configure(
            process, ["/bin/sh", "-c", script, "sh", bin, folder, String(port), String(getpid())], asUser: true)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        server.withLock { $0 = process }
        let ready = (0..<600).contains { _ in
            if (try? Self.run([bin + "/pg_isready", "-q", "-h", "127.0.0.1", "-p", String(port)], asUser: false))
                != nil
            {
                return true
            }
            usleep(50_000)
            return false
        }
        guard ready else { throw Failure(description: "PostgreSQL did not start: \(log)") }
    }

    /// Stops the server (fast shutdown: sessions are ended), keeping its data for `start()`.
    public func stop() {
        guard
            let running = server.withLock({ value in
                defer { value = nil }
                return value
            })
        else { return }
        _ = FileManager.default.createFile(atPath: folder + "/stop", contents: nil)
        running.waitUntilExit()
    }

    /// The server's log so far.
    public var log: String { (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? "" }

    /// Runs `sql` with psql(1) in `database`; its unaligned output.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run(
            [
                bin + "/psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port),
                "-U", "postgres", "-d", database, "-c", sql,
            ],
            asUser: false, environment: ["PGPASSWORD": password])
    }

    /// A new, empty database; its name.
    public func makeDatabase() throws -> String {
        let name = "t\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try psql("CREATE DATABASE \(name)")
        return name
    }

    private static func configure(_ process: Process, _ arguments: [String], asUser: Bool) {
        if asUser, let user {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", user.name, "--"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
        }
    }

    /// Runs a command to its end; its output, or a failure with it.
    @discardableResult
    static func run(_ arguments: [String], asUser: Bool, environment: [String: String] = [:]) throws -> String {
        let process = Process()
        configure(process, arguments, asUser: asUser)
        var variables = ProcessInfo.processInfo.environment
        variables["LANG"] = "C"
        variables.merge(environment) { $1 }
        process.environment = variables
        // A file, not a pipe: a pipe's end inherited by another test's long-lived child would
        // never let its reader see the end.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-pg-out-\(UUID())").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try output.close()
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")): \(process.terminationStatus): \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
