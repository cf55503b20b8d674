import AASASystem
import Foundation
@preconcurrency import Glibc
import Testing

/// The wrappers that moved callers' own C calls into AASASystem: pipes, receiving, waiting on
/// several descriptors, the resolver, and who the process is.
@Suite("Posix wrappers of pipes, names and identity")
struct PosixProcessTests {
    @Test("pipe: both ends non-blocking and close-on-exec; a byte written is read")
    func pipe() throws {
        let ends = try Posix.pipe()
        defer {
            Posix.close(ends.read)
            Posix.close(ends.write)
        }
        for end in [ends.read, ends.write] {
            #expect(fcntl(end, F_GETFL) & O_NONBLOCK != 0)
            #expect(fcntl(end, F_GETFD) & FD_CLOEXEC != 0)
            #expect(Posix.isOpen(end))
        }
        var descriptors = [pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)]
        #expect(Posix.poll(&descriptors, milliseconds: 0) == 0)
        _ = [UInt8(7)].withUnsafeBytes { try? Posix.write(ends.write, $0) }
        #expect(Posix.poll(&descriptors, milliseconds: 0) == 1 && descriptors[0].revents & Int16(POLLIN) != 0)
        #expect(try Posix.readAll(ends.read, limit: 1) == [7])
    }

    @Test("receive: nothing yet would block, a byte is read, a close is zero")
    func receive() throws {
        let (server, client) = PosixDescriptorTests.pair()
        defer { Posix.close(server) }
        var buffer = [UInt8](repeating: 0, count: 4)
        func receive() throws(SystemError) -> IOResult<Int> {
            try buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try Posix.receive(server, into: bytes) }
            }.get()
        }
        guard case .wouldBlock = try receive() else {
            Issue.record("an empty socket did not block")
            return
        }
        _ = [UInt8(9)].withUnsafeBytes { try? Posix.write(client, $0) }
        guard case .processed(1) = try receive() else {
            Issue.record("the byte sent was not received")
            return
        }
        #expect(buffer[0] == 9)
        Posix.close(client)
        guard case .processed(0) = try receive() else {
            Issue.record("the close was not a zero")
            return
        }
    }

    /// Literals only: a name would send a query to the system's DNS, off loopback.
    @Test("addresses: an IPv4 and an IPv6 literal resolve to themselves with the port")
    func addresses() throws {
        let found = try Posix.addresses(of: "127.0.0.1", port: 8443).get()
        #expect(found.count == 1 && found.first?.family == AF_INET)
        let port = found.first.map { address in
            withUnsafeBytes(of: address.storage) { $0.load(as: sockaddr_in.self).sin_port.bigEndian }
        }
        #expect(port == 8443)
        #expect(try Posix.addresses(of: "::1").get().map(\.family) == [AF_INET6])
    }

    @Test("identity: the process's IDs and names as the C library gives them")
    func identity() {
        #expect(Posix.processID() == getpid())
        #expect(Posix.userID() == getuid() && Posix.groupID() == getgid())
        #expect(Posix.effectiveUserID() == geteuid())
        #expect(Posix.isOwnGroup(getegid()))
        #expect(Posix.userName(0) == "root")
        #expect(Posix.onlineProcessors() >= 1)
        #expect(Posix.pageSize() == Int(sysconf(Int32(_SC_PAGESIZE))))
    }
}
