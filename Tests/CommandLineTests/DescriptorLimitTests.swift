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
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--admin", "off", "--workers", "1"], descriptorLimit: 64)
        var clients: [RawClient] = []
        for _ in 0..<100 {
            let client = try RawClient(port: server.port, receiveTimeout: 1)
            // TCP_DEFER_ACCEPT holds silent connections in the kernel: send a byte so each
            // one is handed to the server and takes a descriptor.
            client.send("G")
            clients.append(client)
        }
        usleep(300_000)
        #expect(server.process.isRunning)
        clients.removeAll()
        usleep(500_000)
        let response = try Curl.request("http://127.0.0.1:\(server.port)/apple-app-site-association", ["-H", "Host: example.com"])
        #expect(response.status == 200)
        #expect(server.process.isRunning)
        #expect(server.stop() == 0)
    }

    /// With descriptors exhausted by the public port, a connection to the admin port makes
    /// accept fail with EMFILE there too: the admin listener must pause, not spin on poll.
    @Test("the admin listener pauses accepting on EMFILE instead of spinning")
    func adminExhaustion() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"], descriptorLimit: 64)
        let adminPort = try #require(server.adminPort)
        var clients: [RawClient] = []
        for _ in 0..<100 {
            let client = try RawClient(port: server.port, receiveTimeout: 1)
            client.send("G")
            clients.append(client)
        }
        let admin = try RawClient(port: adminPort, receiveTimeout: 1)
        admin.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(300_000)
        let before = try ProcessTimes.cpuSeconds(of: server.process.processIdentifier)
        usleep(1_000_000)
        let spent = try ProcessTimes.cpuSeconds(of: server.process.processIdentifier) - before
        #expect(spent < 0.3, "the server used \(spent) CPU-s in 1 s with descriptors exhausted")
        #expect(server.process.isRunning)
        clients.removeAll()
        #expect(server.stop() == 0)
    }
}

/// utime + stime of a process from /proc/PID/stat (proc(5)), in seconds.
enum ProcessTimes {
    struct Unreadable: Error {}

    static func cpuSeconds(of pid: Int32) throws -> Double {
        let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = text.lastIndex(of: ")") else { throw Unreadable() }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { throw Unreadable() }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
