import Foundation
@preconcurrency import Glibc

/// The real `aasa-server serve` on a free loopback port, stopped with SIGTERM.
final class RunningServer {
    let process = Process()
    let port: Int
    private let stdout = LockedData()
    private let stderr = LockedData()
    /// The pipes the server writes to; their readability handlers are removed once it has
    /// exited (a handler left on a pipe that is then closed trips libdispatch).
    private let pipes: [Pipe]

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the server with `arguments` after `serve` (plus `--http 127.0.0.1:0` unless
    /// given) in `folder`, and waits until it says where it listens and accepts connections there. With `descriptorLimit`
    /// it runs under `ulimit -n` (through /bin/sh, which then execs it).
    init(in folder: URL, _ arguments: [String], descriptorLimit: Int? = nil) throws {
        let http = arguments.contains("--http") ? [] : ["--http", "127.0.0.1:0"]
        let admin = arguments.contains("--admin") ? [] : ["--admin", "127.0.0.1:0"]
        let serve = ["serve"] + http + admin + arguments
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", BinaryRunner.binary.path] + serve
        } else {
            process.executableURL = BinaryRunner.binary
            process.arguments = serve
        }
        process.currentDirectoryURL = folder
        let out = Pipe()
        let err = Pipe()
        pipes = [out, err]
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let stdout = self.stdout
        let stderr = self.stderr
        out.fileHandleForReading.readabilityHandler = { stdout.append($0.availableData) }
        err.fileHandleForReading.readabilityHandler = { stderr.append($0.availableData) }
        try process.run()
        // Generous: the loop ends as soon as the server says where it listens (or exits), and
        // a build under a sanitizer loads 10,000 sites several times slower.
        let deadline = Date().addingTimeInterval(90)
        var found: Int?
        while Date() < deadline && found == nil && process.isRunning {
            let text = String(decoding: stderr.get(), as: UTF8.self)
            for scheme in ["http", "https"] {
                if found == nil, let range = text.range(of: "info listening on \(scheme)://127.0.0.1:") {
                    found = Int(text[range.upperBound...].prefix { $0.isNumber })
                }
            }
            usleep(20_000)
        }
        guard let found else {
            process.terminate()
            throw StartFailure(
                description: "the server did not start: \(String(decoding: stderr.get(), as: UTF8.self))")
        }
        port = found
        // The log line names the port; readiness is a connection the listener accepts.
        while !Self.accepts(port: found) {
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

    var errors: String { String(decoding: stderr.get(), as: UTF8.self) }

    /// The admin listener's port, once it has said where it listens.
    var adminPort: Int? {
        guard let range = errors.range(of: "admin listening on http://127.0.0.1:") else { return nil }
        return Int(errors[range.upperBound...].prefix { $0.isNumber })
    }
    var accessLog: String { String(decoding: stdout.get(), as: UTF8.self) }

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
        for pipe in pipes { pipe.fileHandleForReading.readabilityHandler = nil }
    }
}

extension LockedData {
    func append(_ more: Data) {
        set(get() + more)
    }
}
