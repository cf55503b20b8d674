import AASASystem
import AASATransport
import Foundation
@preconcurrency import Glibc
import Testing

/// The pre-flight's DNS client against a server on loopback that misbehaves on purpose: it
/// must take the real answer only, go over TCP for a truncated one, and give up within its
/// deadline on silence or nonsense.
@Suite("DNS client", .serialized)
struct DNSClientTests {
    /// An answer to `query` (its id and question copied) with `flags` and A records.
    static func answer(to query: [UInt8], flags: UInt16 = 0x8180, id: UInt16? = nil, addresses: [[UInt8]]) -> [UInt8] {
        var message = Array(query)
        if let id { (message[0], message[1]) = (UInt8(id >> 8), UInt8(id & 0xFF)) }
        (message[2], message[3]) = (UInt8(flags >> 8), UInt8(flags & 0xFF))
        message[7] = UInt8(addresses.count)
        for address in addresses {
            message += [0xC0, 12, 0, query[query.count - 3], 0, 1, 0, 0, 0, 60, 0, UInt8(address.count)] + address
        }
        return message
    }

    static func queryID(_ query: [UInt8]) -> UInt16 { UInt16(query[0]) << 8 | UInt16(query[1]) }

    func client(_ server: FakeDNSServer, timeout: Double = 1, tries: Int = 1) throws -> DNSClient {
        DNSClient(server: try SocketAddress(parsing: "127.0.0.1:\(server.port)"), timeout: timeout, tries: tries)
    }

    @Test("a forged answer with another id and a malformed one come first: both ignored, the real one taken")
    func forgedFirst() throws {
        let server = try FakeDNSServer(udp: { query in
            [
                Self.answer(to: query, id: Self.queryID(query) &+ 1, addresses: [[6, 6, 6, 6]]),
                [0xFF, 0x00, 0x12],
                Self.answer(to: query, addresses: query[query.count - 3] == 1 ? [[127, 0, 0, 9]] : []),
            ]
        })
        var queries = 0
        let found = NameResolver.server(try client(server)).resolve("shop.example.com", port: 80, queries: &queries)
        #expect(try found.get().map(\.description) == ["127.0.0.9:80"])
        #expect(queries == 2, "one A and one AAAA query")
    }

    @Test("a truncated answer is asked again over TCP")
    func truncated() throws {
        let server = try FakeDNSServer(
            udp: { query in [Self.answer(to: query, flags: 0x8380, addresses: [])] },
            tcp: { query in Self.answer(to: query, addresses: [[127, 0, 0, 7], [127, 0, 0, 8]]) })
        var queries = 0
        let found = try client(server).addresses(of: "shop.example.com", type: .a, queries: &queries)
        #expect(try found.get() == [[127, 0, 0, 7], [127, 0, 0, 8]])
        #expect(queries == 2 && server.queries == ["udp": 1, "tcp": 1])
    }

    @Test("NXDOMAIN ends the check after one query; no AAAA asked")
    func noSuchName() throws {
        let server = try FakeDNSServer(udp: { query in [Self.answer(to: query, flags: 0x8183, addresses: [])] })
        var queries = 0
        let found = NameResolver.server(try client(server)).resolve("gone.example.com", port: 80, queries: &queries)
        guard case .failure(let failure) = found else {
            Issue.record("resolved: \(found)")
            return
        }
        #expect(failure.noSuchName && queries == 1, "\(failure)")
    }

    @Test("silence, or nothing but nonsense and other ids: a failure within the deadline, each try asked again")
    func silence() throws {
        let server = try FakeDNSServer(udp: { query in
            [[0xC0, 0xC0, 0xC0], Self.answer(to: query, id: Self.queryID(query) ^ 0xFFFF, addresses: [[1, 1, 1, 1]])]
        })
        let started = MonotonicClock.now()
        var queries = 0
        let found = try client(server, timeout: 0.3, tries: 2).addresses(
            of: "shop.example.com", type: .a, queries: &queries)
        let seconds = Double(MonotonicClock.now() - started) / 1e9
        guard case .failure(let failure) = found else {
            Issue.record("answered: \(found)")
            return
        }
        #expect(failure.description.contains("within 0.3 s"), "\(failure)")
        #expect(queries == 2 && seconds >= 0.5 && seconds < 2, "\(seconds) s")
    }

    @Test("without a resolver setting, getaddrinfo(3): localhost from /etc/hosts, the port set, no DNS query counted")
    func system() throws {
        var queries = 0
        let found = try NameResolver.system.resolve("localhost", port: 8080, queries: &queries).get()
        #expect(found.contains { $0.description == "127.0.0.1:8080" }, "\(found)")
        #expect(queries == 0)
    }

    @Test("nothing listening: refused at once, not a wait for the deadline")
    func refused() throws {
        let port = Self.freeUDPPort()
        let client = DNSClient(server: try SocketAddress(parsing: "127.0.0.1:\(port)"), timeout: 5, tries: 1)
        let started = MonotonicClock.now()
        var queries = 0
        let found = client.addresses(of: "shop.example.com", type: .a, queries: &queries)
        guard case .failure = found else {
            Issue.record("answered: \(found)")
            return
        }
        #expect(Double(MonotonicClock.now() - started) / 1e9 < 2)
    }

    /// A UDP port nothing listens on (bound, read, closed).
    static func freeUDPPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
