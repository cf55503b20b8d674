import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A socket unit whose addresses are not the config file's own: the package's unit listens on
/// `0.0.0.0:80` while an operator's config says `127.0.0.1:80`. A passed socket that covers a
/// listener's address serves it (answering that address only); one that holds the port
/// without covering it is refused by name; and a passed socket another holder shuts down
/// makes `/readyz` fail instead of leaving a ready server that takes no connection.
@Suite("socket unit coverage and lost listeners", .serialized)
struct SocketUnitCoverageTests {
    static let file = SocketActivationTests.file
    static let path = "/.well-known/apple-app-site-association"

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.file)
    }

    /// The status of GET `path` with the site's Host to `host` (an IPv4 or IPv6 literal) to
    /// `port`, or nil when the connection failed or was closed without an answer. A raw
    /// socket, not curl: a child process started meanwhile by `ActivatedServer` (posix_spawn
    /// passes every descriptor not close-on-exec) would hold curl's output pipe open.
    static func status(_ port: Int, _ path: String, from host: String = "127.0.0.1", hostField: String = "example.com")
        -> Int?
    {
        let v6 = host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var storage = sockaddr_storage()
        let length: Int
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            withUnsafeBytes(of: address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
            length = MemoryLayout<sockaddr_in6>.size
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            withUnsafeBytes(of: address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
            length = MemoryLayout<sockaddr_in>.size
        }
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(length)) == 0 }
        }
        guard connected else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(hostField)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    /// The body of GET `path` on the admin listener at `port` (closed after the answer).
    static func body(_ port: Int, _ path: String) -> String {
        guard let client = try? RawClient(port: port, receiveTimeout: 5) else { return "" }
        client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return String(decoding: client.readAll().bytes, as: UTF8.self)
    }

    /// A listening socket on `[::]:0` as systemd makes one for `ListenStream=PORT`:
    /// dual-stack unless `v6Only` (BindIPv6Only=, systemd.socket(5)).
    static func wildcardIPv6Socket(v6Only: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var only: Int32 = v6Only ? 1 : 0
        setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 128) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw ActivatedServer.Failure(description: "cannot listen on [::]:0")
        }
        return (fd, Int(UInt16(bigEndian: address.sin6_port)))
    }

    /// The package's socket unit (`ListenStream=0.0.0.0:80`, `ListenStream=0.0.0.0:ADMIN` here)
    /// and a config on 127.0.0.1: served from the passed sockets, admin paths included.
    @Test(
        "systemd-socket-activate on 0.0.0.0 serves listeners configured on 127.0.0.1 of the same ports",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: SocketActivationTests.socketActivate),
            "needs systemd-socket-activate (Debian's systemd package)"))
    func wildcardUnitCoversLoopbackConfig() throws {
        let port = try ProbeTests.freePort()
        let adminPort = try ProbeTests.freePort()
        let run = try SocketActivateRun(
            listens: ["0.0.0.0:\(port)", "0.0.0.0:\(adminPort)"], fdname: "aasa-server:aasa-server",
            serve: ["--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "127.0.0.1:\(adminPort)"],
            in: folder)
        #expect(eventually(10) { RunningServer.accepts(port: port) })
        // This first connection starts the server, which must not fail to bind 127.0.0.1.
        #expect(SocketActivationTests.served(port: port), "\(run.errors)")
        #expect(
            eventually(20) { Self.status(adminPort, "/healthz", hostField: "127.0.0.1") == 200 }, "\(run.errors)")
        #expect(Self.status(adminPort, "/readyz", hostField: "127.0.0.1") == 200)
        #expect(Self.status(port, Self.path) == 200)
        #expect(run.errors.contains("systemd_address=0.0.0.0:\(port)"), "\(run.errors)")
        // The socket takes every IPv4 address; the server answers only the configured one.
        #expect(Self.status(port, Self.path, from: "127.0.0.2") == nil)
        #expect(Self.status(adminPort, "/healthz", from: "127.0.0.2", hostField: "127.0.0.2") == nil)
        #expect(run.process.isRunning)
        #expect(run.terminate())
    }

    @Test("a dual-stack [::]:P socket serves a listener on 127.0.0.1:P; a V6ONLY one does not cover it")
    func dualStackSocket() throws {
        let (socket, port) = try Self.wildcardIPv6Socket(v6Only: false)
        defer { close(socket) }
        let server = try ActivatedServer(
            socket: socket, in: folder.url, ["--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "off"],
            name: "aasa-server.socket")
        defer { _ = server.stop() }
        try server.waitUntilListening(on: port)
        #expect(server.errors.contains("systemd_fd=3"))
        #expect(SocketActivationTests.served(port: port))
        // IPv6 arrives on the same socket but is not the configured address.
        #expect(Self.status(port, Self.path, from: "::1") == nil)
        #expect(server.stop() == 0)

        let (only, onlyPort) = try Self.wildcardIPv6Socket(v6Only: true)
        defer { close(only) }
        // IPv6 only: no IPv4 connection reaches it, so the listener binds 127.0.0.1 itself.
        let apart = try ActivatedServer(
            socket: only, in: folder.url, ["--sites", "sites", "--http", "127.0.0.1:\(onlyPort)", "--admin", "off"])
        defer { _ = apart.stop() }
        try apart.waitUntilListening(on: onlyPort)
        #expect(apart.errors.contains("which matches no configured listener"))
        #expect(!apart.errors.contains("systemd_fd=3"))
        #expect(SocketActivationTests.served(port: onlyPort))
    }

    @Test("a passed socket on a listener's port that does not cover its address is refused, naming the unit")
    func conflictingSocketRefused() throws {
        let (socket, port) = try ActivatedServer.listeningSocket()
        defer { close(socket) }
        // The unit holds 127.0.0.1:P; the config asks for every address: a bind would fail.
        let wider = try ActivatedServer(
            socket: socket, in: folder.url, ["--sites", "sites", "--http", "0.0.0.0:\(port)", "--admin", "off"],
            name: "aasa-server.socket")
        #expect(wider.waitForExit() == 2)
        #expect(wider.errors.contains("holds the port of the listener http 0.0.0.0:\(port)"), "\(wider.errors)")
        #expect(wider.errors.contains("change the socket unit aasa-server.socket"))
        #expect(!wider.errors.contains("address already in use"))
        // On the admin listener's port: refused too, not served without /healthz and /metrics.
        let token = try folder.write("admin-token", AdminListenerTests.token + "\n")
        #expect(chmod(token, 0o600) == 0)
        let admin = try ActivatedServer(
            socket: socket, in: folder.url,
            [
                "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "0.0.0.0:\(port)", "--admin-public",
                "--admin-token-file", token,
            ], name: "aasa-server")
        #expect(admin.waitForExit() == 2)
        #expect(admin.errors.contains("holds the port of the listener admin 0.0.0.0:\(port)"), "\(admin.errors)")
        #expect(admin.errors.contains("FileDescriptorName=aasa-server"))
    }

    @Test("a passed socket shut down by another holder makes /readyz fail, logged once and counted")
    func shutDownSocket() throws {
        let (socket, port) = try ActivatedServer.listeningSocket()
        defer { close(socket) }
        let adminPort = try ProbeTests.freePort()
        let server = try ActivatedServer(
            socket: socket, in: folder.url,
            [
                "--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "127.0.0.1:\(adminPort)", "--workers",
                "2",
            ])
        defer { _ = server.stop() }
        try server.waitUntilListening(on: port)
        #expect(eventually(20) { Self.status(adminPort, "/readyz", hostField: "127.0.0.1") == 200 })
        #expect(SocketActivationTests.served(port: port))
        // Another holder of the socket (systemd, a second process) shuts it down.
        #expect(shutdown(socket, Int32(SHUT_RDWR)) == 0)
        #expect(eventually(10) { Self.status(adminPort, "/readyz", hostField: "127.0.0.1") == 503 }, "\(server.errors)")
        #expect(Self.body(adminPort, "/metrics").contains("aasa_listeners_lost 2"))
        #expect(server.errors.components(separatedBy: "listener stopped accepting").count == 2, "\(server.errors)")
        #expect(server.status == nil)
    }
}
