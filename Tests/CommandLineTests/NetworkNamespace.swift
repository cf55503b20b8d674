import Foundation
@preconcurrency import Glibc

/// A network namespace of the server's own (unshare(1) `--user --map-root-user --net`), where
/// every address of 2001:db8::/32 (RFC 3849's documentation prefix) is local: a client can send
/// from any /64 of a /48 over loopback, as a site given a /48 can (RFC 6177), and the
/// machine's own network stays as it is. The test reaches it by setns(2) on a thread of its own,
/// which needs CAP_SYS_ADMIN where the test runs (root, as in CI), and nsenter(1) for curl.
enum NetworkNamespace {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The server's address, and the commands that set the namespace up before the server
    /// starts: loopback up, that address, a `local` route for the whole prefix (ip-route(8)),
    /// and binding to an address of it allowed (`ip_nonlocal_bind`, this namespace's alone).
    static let server = "2001:db8:ffff::1"
    static let setup =
        "ip link set lo up && ip -6 addr add \(server)/128 dev lo && ip -6 route add local 2001:db8::/32 dev lo"
        + " && echo 1 > /proc/sys/net/ipv6/ip_nonlocal_bind"

    /// Whether this machine lets the test make such a namespace and enter it.
    static let works: Bool = {
        guard geteuid() == 0, setnsCall != nil else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--user", "--map-root-user", "--net", "/bin/sh", "-c", setup]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/nsenter")
    }()

    /// setns(2), which Glibc's Swift module does not declare (it is a GNU extension).
    private typealias SetNS = @convention(c) (Int32, Int32) -> Int32
    private static let setnsCall: SetNS? = dlsym(nil, "setns").map {
        unsafeBitCast($0, to: SetNS.self)
    }

    private final class Outcome: @unchecked Sendable {
        var sockets: Result<[Int32], any Error> = .success([])
    }

    /// TCP connections to `port` of `server` in the network namespace of process `pid`, one
    /// from each of `sources`. Made on a thread that enters the namespace and ends: a socket
    /// stays in the namespace it was made in, whichever thread uses it.
    static func connect(from sources: [String], port: Int, in pid: pid_t) throws -> [Int32] {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            outcome.sockets = Result {
                let namespace = open("/proc/\(pid)/ns/net", O_RDONLY | O_CLOEXEC)
                guard namespace >= 0 else { throw Failure(description: "open /proc/\(pid)/ns/net: \(errno)") }
                defer { close(namespace) }
                guard let setns = setnsCall, setns(namespace, 0x4000_0000) == 0 else {  // CLONE_NEWNET
                    throw Failure(description: "setns: \(String(cString: strerror(errno)))")
                }
                var made: [Int32] = []
                do {
                    for source in sources { made.append(try connect(from: source, port: port)) }
                } catch {
                    for fd in made { close(fd) }
                    throw error
                }
                return made
            }
        }
        thread.start()
        done.wait()
        return try outcome.sockets.get()
    }

    private static func address(_ text: String, port: Int) throws -> sockaddr_in6 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET6, text, &address.sin6_addr) == 1 else {
            throw Failure(description: "not an IPv6 address: \(text)")
        }
        return address
    }

    private static func connect(from source: String, port: Int) throws -> Int32 {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var local = try address(source, port: 0)
        var remote = try address(server, port: port)
        let length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
        let connected =
            bound
            && withUnsafePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) == 0 }
            }
        guard connected else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "from [\(source)] to [\(server)]:\(port): \(reason)")
        }
        return fd
    }
}
