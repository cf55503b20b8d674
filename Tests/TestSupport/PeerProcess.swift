import Foundation
@preconcurrency import Glibc

/// A Python peer from `Tests/Peers/`, its output kept in a file (no pipe handler left with
/// libdispatch), killed when stopped.
public final class PeerProcess {
    public let process = Process()
    private let folder: TemporaryFolder
    private let log: String

    /// `Tests/Peers/`, found from this file's place in the package.
    public static let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers")

    public init(script: String, arguments: [String]) throws {
        folder = try TemporaryFolder()
        log = try folder.write("output.log", "")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", Self.peers.appendingPathComponent(script).path] + arguments
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try output.close()
    }

    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The first line the peer printed as a number (the port the loopback peers listen on),
    /// waiting up to `seconds` for it.
    public func port(within seconds: Double = 10) -> Int? {
        var port: Int?
        _ = eventually(seconds) {
            port = Int(output.split(separator: "\n").first ?? "")
            return port != nil
        }
        return port
    }

    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
