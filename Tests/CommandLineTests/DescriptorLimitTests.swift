@preconcurrency import Glibc
import Foundation
import Testing

@Suite("descriptor exhaustion")
struct DescriptorLimitTests {
    /// With 64 descriptors, 100 idle clients exhaust them: accept4 fails with EMFILE, the
    /// server pauses accepting instead of dying, and serves again once clients go away.
    @Test("running out of descriptors pauses accepting and never ends the server")
    func exhaustion() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        try folder.write(
            "serve.sh", "ulimit -n 64 && exec \"$1\" serve --sites sites --http 127.0.0.1:0 --admin off --workers 1\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [folder.url.appendingPathComponent("serve.sh").path, BinaryRunner.binary.path]
        process.currentDirectoryURL = folder.url
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let log = LockedData()
        errors.fileHandleForReading.readabilityHandler = { log.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var port: Int?
        for _ in 0..<200 where port == nil {
            let text = String(decoding: log.get(), as: UTF8.self)
            if let range = text.range(of: "] listening on http://127.0.0.1:") { port = Int(text[range.upperBound...].prefix { $0.isNumber }) }
            usleep(25_000)
        }
        let serverPort = try #require(port)
        var clients: [RawClient] = []
        for _ in 0..<100 {
            let client = try RawClient(port: serverPort, receiveTimeout: 1)
            // TCP_DEFER_ACCEPT holds silent connections in the kernel: send a byte so each
            // one is handed to the server and takes a descriptor.
            client.send("G")
            clients.append(client)
        }
        usleep(300_000)
        #expect(process.isRunning)
        clients.removeAll()
        usleep(500_000)
        let response = try Curl.request("http://127.0.0.1:\(serverPort)/apple-app-site-association", ["-H", "Host: example.com"])
        #expect(response.status == 200)
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<200 where process.isRunning { usleep(25_000) }
        #expect(process.terminationStatus == 0)
    }
}
