import Foundation
import TestSupport
import Testing

/// Anyone can send Apple's User-Agent with made-up hosts: the warning about a host no site
/// serves must neither flood the log nor fall silent for good.
@Suite("Apple's fetcher asking for unknown hosts")
struct AppleFetchWarningTests {
    static let message = "apple fetcher asked for a host no site serves"

    @Test("1,000 pipelined AASA-Bot requests for made-up hosts: all counted, one warning line")
    func pipelinedUnknownHosts() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA())
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        defer { _ = server.stop() }
        let requests = (0..<1000).map { index in
            "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: made-up-\(index).example.net\r\n"
                + "User-Agent: AASA-Bot/1.0.0\r\n\r\n"
        }
        let client = try RawClient(port: server.port, receiveTimeout: 10)
        client.send(requests.joined())
        // The answers, read as they come until all are there (or the receive timeout).
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var answered = 0
        while answered < 1000 {
            let count = client.receive(into: &buffer)
            guard count > 0 else { break }
            received += buffer[..<count]
            answered = String(decoding: received, as: UTF8.self).statusLines.count
        }
        let statuses = String(decoding: received, as: UTF8.self).statusLines
        #expect(statuses.count == 1000)
        #expect(statuses.allSatisfy { $0 == "HTTP/1.1 404 Not Found" })
        #expect(eventually(10) { (try? server.adminText("/metrics"))?.contains("unknown_host_total 1000") == true })
        // One line for the whole flood (main logged 1,000, then nothing more until a restart).
        #expect(eventually(5) { server.errors.components(separatedBy: Self.message).count == 2 })
        #expect(server.errors.contains("host=made-up-0.example.net"), "\(server.errors.suffix(2000))")
        #expect(server.stop() == 0)
        #expect(server.errors.components(separatedBy: Self.message).count == 2)
    }
}
