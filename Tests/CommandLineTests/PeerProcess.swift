import Foundation
@preconcurrency import Glibc

/// A Python peer from `Tests/Peers/`, its output kept in a file (no pipe handler left with
/// libdispatch), killed when stopped.
final class PeerProcess {
    let process = Process()
    private let folder: TemporaryFolder
    private let log: String

    init(script: String, arguments: [String]) throws {
        folder = try TemporaryFolder()
        log = try folder.write("output.log", "")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", BinaryRunner.packageRoot.appendingPathComponent("Tests/Peers/\(script)").path] + arguments
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try output.close()
    }

    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
