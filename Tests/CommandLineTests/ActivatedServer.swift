import Foundation
@preconcurrency import Glibc
import TestSupport

/// The real `aasa-server serve` started as systemd starts a socket-activated service
/// (sd_listen_fds(3)): the test's listening socket as descriptor 3, `LISTEN_FDS=1`,
/// `LISTEN_FDNAMES` and `LISTEN_PID`, which the shell that execs the server sets to its own
/// pid, the server's. posix_spawn(3) rather than Foundation's Process, which passes no
/// descriptor but the standard ones; descriptors above 3 are closed in the child.
final class ActivatedServer {
    let pid: pid_t
    private let logs: TemporaryFolder
    private let stderrFile: String
    private var exitStatus: Int32?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `serve` with `arguments` in `folder`; `listenPID` replaces the server's pid in
    /// `LISTEN_PID` (a parent's variables, left behind).
    init(socket: Int32, in folder: URL, _ arguments: [String], name: String = "http", listenPID: String? = nil) throws {
        logs = try TemporaryFolder()
        stderrFile = try logs.write("stderr", "")
        let stdoutFile = try logs.write("stdout", "")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutFile, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, socket, 3)
        // Nothing else the test process holds reaches the server: a pipe another test has open
        // (curl's output) would stay open in it and keep that reader waiting. glibc 2.34+ has
        // posix_spawn_file_actions_addclosefrom_np(3), which Swift's Glibc module does not show.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 4)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let script = "cd \"$1\" && shift && export LISTEN_PID=\(listenPID ?? "$$") && exec \"$@\""
        let argv = ["/bin/sh", "-c", script, "sh", folder.path, BinaryRunner.binary.path, "serve"] + arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LISTEN_") }
        environment["LISTEN_FDS"] = "1"
        environment["LISTEN_FDNAMES"] = name
        let envp = environment.map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = envp.map { strdup($0) } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, "/bin/sh", &actions, &attributes, cArguments, cEnvironment)
        guard code == 0 else { throw Failure(description: "posix_spawn failed: \(String(cString: strerror(code)))") }
        pid = child
    }

    var errors: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    /// The exit status once the process has ended, without waiting.
    var status: Int32? {
        if exitStatus == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                // WIFEXITED / WEXITSTATUS, and 128 + signal otherwise, as a shell reports it.
                exitStatus = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            }
        }
        return exitStatus
    }

    /// Waits until the server says it listens on `port` and accepts a connection there.
    func waitUntilListening(on port: Int, seconds: Double = 60) throws {
        let ready = eventually(seconds) {
            status != nil
                || (errors.contains("listening on http://127.0.0.1:\(port)") && RunningServer.accepts(port: port))
        }
        guard ready, status == nil else {
            throw Failure(
                description: "the server did not start (status \(status.map(String.init) ?? "none")): \(errors)")
        }
    }

    /// The exit status within `seconds`, or nil.
    func waitForExit(seconds: Double = 15) -> Int32? {
        _ = eventually(seconds) { status != nil }
        return status
    }

    /// SIGTERM, then the exit status (nil if it did not stop in time).
    func stop(seconds: Double = 15) -> Int32? {
        if status == nil { kill(pid, SIGTERM) }
        return waitForExit(seconds: seconds)
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    /// A listening TCP socket on a free loopback port, as a socket unit holds one.
    static func listeningSocket() throws -> (fd: Int32, port: Int) {
        try LoopbackSocket.listen()
    }
}
