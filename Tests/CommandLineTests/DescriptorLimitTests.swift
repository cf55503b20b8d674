import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@Suite("descriptor exhaustion")
struct DescriptorLimitTests {
    /// With 64 descriptors, 100 clients that each ask once and stay idle: at the serving loop's
    /// share of the descriptors, the connection idle the longest is closed for the new one
    /// (docs/security.md, "Descriptors"), so every client is answered, the process never
    /// reaches EMFILE, and the server lives on.
    @Test("at its share of the descriptors the loop closes the longest idle connection, never reaching the limit")
    func exhaustion() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--admin", "off", "--workers", "1"], descriptorLimit: 64)
        let descriptors = "/proc/\(server.process.processIdentifier)/fd"
        let count = { (try? FileManager.default.contentsOfDirectory(atPath: descriptors).count) ?? 0 }
        var clients: [RawClient] = []
        var most = 0
        for _ in 0..<100 {
            let client = try RawClient(port: server.port, receiveTimeout: 2)
            client.send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
            #expect(RawClient.readResponse(client) != nil)
            clients.append(client)
            most = max(most, count())
        }
        #expect(most < 64, "\(most) descriptors open at the most")
        // The oldest clients were closed for the newest, which are still served.
        #expect(RawClient.readResponse(clients[0]) == nil)
        clients[99].send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(RawClient.readResponse(clients[99]) != nil)
        #expect(server.process.isRunning)
        #expect(server.stop() == 0)
    }

    /// With 100 clients at a 64-descriptor limit, the serving loop stops accepting short of
    /// the limit (docs/security.md, "Descriptors"): the admin listener still accepts and
    /// answers /healthz from the reserve, and the paused loop does not spin.
    @Test("the admin listener answers while clients hold the serving loop's share, and nothing spins")
    func adminExhaustion() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"], descriptorLimit: 64)
        let adminPort = try #require(server.adminPort)
        var clients: [RawClient] = []
        for _ in 0..<100 {
            let client = try RawClient(port: server.port, receiveTimeout: 1)
            client.send("G")
            clients.append(client)
        }
        // The loop has taken its share (proc(5), /proc/PID/fd) and stopped short of the limit.
        let descriptors = "/proc/\(server.process.processIdentifier)/fd"
        let count = { (try? FileManager.default.contentsOfDirectory(atPath: descriptors).count) ?? 0 }
        #expect(eventually(5) { count() >= 40 })
        #expect(count() < 64, "\(count()) descriptors open")
        let health = try RawClient.exchange(
            port: adminPort, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(health.hasPrefix("HTTP/1.1 200"), "/healthz: \(health)")
        let before = try ProcessTimes.cpuSeconds(of: server.process.processIdentifier)
        // The measurement's window, not a wait for the server: CPU time spent over one second.
        usleep(1_000_000)
        let spent = try ProcessTimes.cpuSeconds(of: server.process.processIdentifier) - before
        #expect(spent < 0.3, "the server used \(spent) CPU-s in 1 s with its descriptor share taken")
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
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw Unreadable()
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
