import Foundation

/// Runs the real `aasa-server` binary, built beside this test bundle, and captures its output.
struct BinaryRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, for the example sites in Config/.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Set by `make sanitize`: the binary and the tests run several times slower, and ASan's
    /// quarantine keeps freed memory resident, so time and memory bounds do not apply.
    static let underAddressSanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
    static let underSanitizer =
        underAddressSanitizer || ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["AASA_SERVER_BIN"] { return URL(fileURLWithPath: path) }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testExecutable.deletingLastPathComponent().appendingPathComponent("aasa-server")
    }

    /// `executable` runs instead of the binary (a shell that sets a limit, then execs it).
    static func run(
        _ arguments: [String], in folder: URL = packageRoot, environment: [String: String] = [:],
        executable: URL? = nil,
        timeout: TimeInterval = 30
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs, so a large output cannot block it.
        let outData = LockedData()
        let errData = LockedData()
        let group = DispatchGroup()
        for (pipe, sink) in [(stdout, outData), (stderr, errData)] {
            group.enter()
            DispatchQueue.global().async {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw RunnerError.timedOut(arguments)
        }
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    enum RunnerError: Error {
        case timedOut([String])
    }
}

/// A Data buffer written by one reader thread and read after it finished.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) {
        lock.lock()
        data = value
        lock.unlock()
    }

    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
