import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Sockets passed as systemd passes them (sd_listen_fds(3)): served from, kept open for the next
/// process, refused when they match no listener, ignored when meant for another process.
@Suite("socket activation")
struct SocketActivationTests {
    static let file = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": []}]}}"#
    static let request =
        "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n"

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.file)
    }

    /// One request on a new connection: whether it was answered 200 with the file.
    static func served(port: Int) -> Bool {
        guard let client = try? RawClient(port: port, receiveTimeout: 10) else { return false }
        client.send(request)
        guard let response = RawClient.readResponse(client) else { return false }
        return response.hasPrefix("HTTP/1.1 200 OK") && response.hasSuffix(file)
    }

    @Test("the loops serve from the socket systemd passes, and leave it open when they stop")
    func servesPassedSocket() throws {
        let (socket, port) = try ActivatedServer.listeningSocket()
        defer { close(socket) }
        // A bind of its own would fail: this process holds the port without SO_REUSEPORT.
        let server = try ActivatedServer(
            socket: socket, in: folder.url,
            ["--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "off", "--workers", "2"])
        try server.waitUntilListening(on: port)
        #expect(server.errors.contains("systemd_fd=3"))
        #expect((0..<20).allSatisfy { _ in Self.served(port: port) })
        #expect(server.stop() == 0)
        // Still listening: connections wait in its queue for the next process.
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(socket, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 && listening == 1)
        #expect(RunningServer.accepts(port: port))
    }

    @Test("a loop at its ceiling leaves the shared socket's connections to a loop with room")
    func fullLoopLeavesConnections() throws {
        let (socket, port) = try ActivatedServer.listeningSocket()
        defer { close(socket) }
        // Two connections per loop; three held by clients in the middle of a request head
        // (not idle, so none is closed for a new one): one loop is full, the other has room.
        let server = try ActivatedServer(
            socket: socket, in: folder.url,
            [
                "--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "off", "--workers", "2",
                "--max-connections", "4",
            ])
        defer { _ = server.stop() }
        try server.waitUntilListening(on: port)
        var held: [RawClient] = []
        for _ in 0..<3 {
            let client = try RawClient(port: port, receiveTimeout: 10)
            client.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: exa")
            held.append(client)
        }
        let started = Date()
        #expect(Self.served(port: port))
        // Before a head deadline (10 s) could free a slot in the full loop.
        #expect(Date().timeIntervalSince(started) < 3, "answered after \(Date().timeIntervalSince(started)) s")
        _ = held
    }

    @Test("a restart on the same socket under a request loop loses no request")
    func restartLosesNothing() throws {
        let (socket, port) = try ActivatedServer.listeningSocket()
        defer { close(socket) }
        let arguments = ["--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "off", "--workers", "2"]
        let first = try ActivatedServer(socket: socket, in: folder.url, arguments)
        try first.waitUntilListening(on: port)
        let stop = LockedFlag()
        let served = LockedCounter()
        let failures = LockedCounter()
        let started = Date()
        // Bounded: 20,000 requests or 60 s, whichever comes first.
        let load = Thread {
            while !stop.isSet && served.value + failures.value < 20_000 && Date().timeIntervalSince(started) < 60 {
                if Self.served(port: port) { served.increment() } else { failures.increment() }
            }
        }
        load.start()
        #expect(eventually(10) { served.value >= 50 })
        #expect(first.stop() == 0)
        let servedByFirst = served.value
        let second = try ActivatedServer(socket: socket, in: folder.url, arguments)
        try second.waitUntilListening(on: port)
        #expect(eventually(20) { served.value >= servedByFirst + 50 })
        stop.set()
        #expect(eventually(15) { !load.isExecuting })
        #expect(failures.value == 0, "\(failures.value) of \(served.value + failures.value) requests failed")
        #expect(second.stop() == 0)
        print("restartLosesNothing: \(served.value) served, \(failures.value) failed")
    }

    @Test("a passed socket that matches no listener is closed with a warning; misnamed or not listening stops start-up")
    func unmatchedSocket() throws {
        let (socket, port) = try ActivatedServer.listeningSocket()
        defer { close(socket) }
        // As after an upgrade that brings the socket unit to a config file with other listeners.
        let server = try ActivatedServer(
            socket: socket, in: folder.url, ["--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"])
        #expect(
            eventually(20) {
                server.errors.contains(
                    "systemd passed descriptor 3 (http) on 127.0.0.1:\(port), which matches no configured listener")
                    && server.errors.contains("listening on http://127.0.0.1:")
            }, "\(server.errors)")
        #expect(server.errors.contains("it is closed, and its listener binds as usual"))
        #expect(server.stop() == 0)
        // Named for the admin listener but bound to the HTTP listener's address.
        let misnamed = try ActivatedServer(
            socket: socket, in: folder.url, ["--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "off"],
            name: "admin")
        #expect(misnamed.waitForExit() == 2)
        #expect(misnamed.errors.contains("named admin but bound to the http listener's address"))
        // A TCP socket that does not listen (ListenStream= always listens).
        let idle = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(idle) }
        let notListening = try ActivatedServer(
            socket: idle, in: folder.url, ["--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"])
        #expect(notListening.waitForExit() == 2)
        #expect(notListening.errors.contains("systemd passed descriptor 3 (http), which is not a listening TCP socket"))
    }

    @Test("LISTEN_PID naming another process: the descriptors are not taken, the listeners bind")
    func otherProcessesSockets() throws {
        let (socket, port) = try ActivatedServer.listeningSocket()
        defer { close(socket) }
        let server = try ActivatedServer(
            socket: socket, in: folder.url, ["--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"],
            listenPID: "1")
        #expect(eventually(60) { server.status != nil || server.errors.contains("listening on http://127.0.0.1:") })
        let errors = server.errors
        let range = try #require(errors.range(of: "listening on http://127.0.0.1:"))
        let own = try #require(Int(errors[range.upperBound...].prefix { $0.isNumber }))
        #expect(own != port)
        #expect(!errors.contains("systemd_fd"))
        #expect(eventually(10) { Self.served(port: own) })
        #expect(server.stop() == 0)
    }

    static let socketActivate = SocketActivateRun.program

    /// systemd's own tool sets the variables as a socket unit does, and starts the server on
    /// the first connection, which waits in the queue meanwhile (systemd-socket-activate(1)).
    @Test(
        "under systemd-socket-activate, the first connection waits in the queue and is answered",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: socketActivate),
            "needs systemd-socket-activate (Debian's systemd package)"))
    func systemdSocketActivate() throws {
        let port = try ProbeTests.freePort()
        let run = try SocketActivateRun(
            listens: ["127.0.0.1:\(port)"], fdname: "http",
            serve: ["--sites", "sites", "--http", "127.0.0.1:\(port)", "--admin", "off"], in: folder)
        // It listens before it starts the server; this request is what starts it.
        #expect(eventually(10) { RunningServer.accepts(port: port) })
        #expect(Self.served(port: port))
        // The loops serve as soon as they run; the line saying so may come a moment later.
        #expect(
            eventually(10) {
                run.errors.contains("listening on http://127.0.0.1:\(port)") && run.errors.contains("systemd_fd=3")
            },
            "\(run.errors)")
        // It execs the server in its own process: SIGTERM reaches the server.
        #expect(run.terminate())
    }
}
