import Testing

@testable import AASATransport

/// Which configured listener a socket systemd passed may serve (`covers`), and which it would
/// keep from binding (`conflicts`): the rules behind a socket unit on `0.0.0.0:80` and a config
/// on `127.0.0.1:80`.
@Suite("passed sockets and configured addresses")
struct InheritedSocketTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var socket: String
        var v6Only = true
        var configured: String
        var covers: Bool
        var conflicts: Bool
        var testDescription: String {
            "\(socket)\(v6Only ? "" : " dual-stack") for \(configured): covers \(covers), conflicts \(conflicts)"
        }
    }

    static let cases: [Case] = [
        Case(socket: "0.0.0.0:80", configured: "0.0.0.0:80", covers: true, conflicts: true),
        Case(socket: "0.0.0.0:80", configured: "127.0.0.1:80", covers: true, conflicts: true),
        Case(socket: "0.0.0.0:80", configured: "192.0.2.7:80", covers: true, conflicts: true),
        Case(socket: "0.0.0.0:80", configured: "127.0.0.1:8080", covers: false, conflicts: false),
        Case(socket: "0.0.0.0:80", configured: "[::1]:80", covers: false, conflicts: false),
        Case(socket: "127.0.0.1:80", configured: "127.0.0.1:80", covers: true, conflicts: true),
        Case(socket: "127.0.0.1:80", configured: "0.0.0.0:80", covers: false, conflicts: true),
        Case(socket: "127.0.0.1:80", configured: "127.0.0.2:80", covers: false, conflicts: false),
        Case(socket: "[::]:80", configured: "[::1]:80", covers: true, conflicts: true),
        Case(socket: "[::]:80", configured: "127.0.0.1:80", covers: false, conflicts: false),
        Case(socket: "[::]:80", v6Only: false, configured: "127.0.0.1:80", covers: true, conflicts: true),
        Case(socket: "[::]:80", v6Only: false, configured: "0.0.0.0:80", covers: true, conflicts: true),
        Case(socket: "[::1]:80", configured: "[::]:80", covers: false, conflicts: true),
        Case(socket: "[::1]:80", configured: "0.0.0.0:80", covers: false, conflicts: false),
    ]

    @Test("a wildcard covers its family's addresses on its port (and IPv4 too when dual-stack)", arguments: cases)
    func coverage(_ example: Case) throws {
        let socket = InheritedSocket(
            fd: 3, name: "aasa-server", address: try SocketAddress(parsing: example.socket), v6Only: example.v6Only)
        let configured = try SocketAddress(parsing: example.configured)
        #expect(socket.covers(configured) == example.covers)
        #expect(socket.conflicts(with: configured) == example.conflicts)
    }

    @Test("an IPv4 address and its IPv4-mapped IPv6 form are the same host; ports are not compared")
    func sameHost() throws {
        let v4 = try SocketAddress(parsing: "127.0.0.1:80")
        #expect(v4.isSameHost(as: try SocketAddress(parsing: "[::ffff:127.0.0.1]:5000")))
        #expect(try SocketAddress(parsing: "[::ffff:127.0.0.1]:1").isSameHost(as: v4))
        #expect(!v4.isSameHost(as: try SocketAddress(parsing: "127.0.0.2:80")))
        #expect(!v4.isSameHost(as: try SocketAddress(parsing: "[::1]:80")))
        #expect(try SocketAddress(parsing: "[::1]:80").isSameHost(as: try SocketAddress(parsing: "[::1]:81")))
    }

    @Test(
        "a scope admits its own host, and a wildcard scope any address of its family",
        arguments: [
            ("127.0.0.1:80", "127.0.0.1:5", true), ("127.0.0.1:80", "[::ffff:127.0.0.1]:5", true),
            ("127.0.0.1:80", "127.0.0.2:5", false), ("0.0.0.0:80", "[::ffff:10.0.0.1]:5", true),
            ("0.0.0.0:80", "192.0.2.1:5", true), ("0.0.0.0:80", "[::1]:5", false), ("[::]:80", "[::1]:5", true),
            ("[::]:80", "127.0.0.1:5", false), ("[::1]:80", "[::1]:5", true), ("[::1]:80", "127.0.0.1:5", false),
        ])
    func admits(_ scope: String, _ local: String, _ admitted: Bool) throws {
        #expect(try SocketAddress(parsing: scope).admits(try SocketAddress(parsing: local)) == admitted)
    }

    @Test("the unit is named by the socket's name when that is the default, the unit's")
    func unitName() {
        let address = SocketAddress.loopback(port: 80)
        #expect(
            InheritedSocket(fd: 3, name: "aasa-server.socket", address: address).unit.contains("aasa-server.socket"))
        #expect(
            InheritedSocket(fd: 3, name: "web", address: address).unit
                == "the socket unit that passed it (FileDescriptorName=web)")
    }
}
