import Foundation
@preconcurrency import Glibc
import TestSupport

/// The real server under systemd-socket-activate(1), which listens on `listens`, passes the
/// sockets named `fdname` and execs `serve` with `arguments` at the first connection; its
/// stderr is kept in `folder`.
final class SocketActivateRun {
    static let program = "/usr/bin/systemd-socket-activate"

    let process = Process()
    private let log: String

    init(listens: [String], fdname: String, serve arguments: [String], in folder: TemporaryFolder) throws {
        process.executableURL = URL(fileURLWithPath: Self.program)
        process.arguments =
            listens.map { "--listen=\($0)" } + ["--fdname=\(fdname)", BinaryRunner.binary.path, "serve"] + arguments
        process.currentDirectoryURL = folder.url
        log = try folder.write("stderr", "")
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try errors.close()
    }

    /// What it and the server wrote to stderr so far.
    var errors: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// SIGTERM, which reaches the server (it is exec'd in the same process); true when it
    /// exits 0 within 15 s.
    func terminate() -> Bool {
        kill(process.processIdentifier, SIGTERM)
        return eventually(15) { !self.process.isRunning } && process.terminationStatus == 0
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
