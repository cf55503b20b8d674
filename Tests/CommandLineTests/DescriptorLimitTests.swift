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
}
