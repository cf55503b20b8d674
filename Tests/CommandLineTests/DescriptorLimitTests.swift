import Foundation
@preconcurrency import Glibc
import Testing

@Suite("descriptor exhaustion")
struct DescriptorLimitTests {
    /// With 64 descriptors, 100 idle clients take the serving loop's share of them: the server
    /// pauses accepting (short of EMFILE) instead of dying, and serves again once clients go away.
    @Test("running out of descriptors pauses accepting and never ends the server")
    func exhaustion() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--admin", "off", "--workers", "1"], descriptorLimit: 64)
        var clients: [RawClient] = []
        for _ in 0..<100 {
            let client = try RawClient(port: server.port, receiveTimeout: 0.5)
            // A whole keep-alive request: each client the server accepts is answered and keeps
            // its descriptor; past the loop's share the rest wait in the backlog.
            client.send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
            clients.append(client)
        }
        let answered = clients.map { RawClient.readResponse($0) != nil }
        let accepted = answered.filter { $0 }.count
        // Some were served and some were not: the loop took its share of the descriptors and
        // paused accepting instead of dying.
        #expect(accepted > 0 && accepted < 100, "\(accepted) of 100 answered")
        #expect(server.process.isRunning)
        // Once the answered clients leave, the waiting ones are accepted and answered.
        let waiting = zip(clients, answered).filter { !$0.1 }.map(\.0).prefix(20)
        clients.removeAll { client in !waiting.contains { $0 === client } }
        #expect(waiting.allSatisfy { client in (0..<10).contains { _ in RawClient.readResponse(client) != nil } })
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
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
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
