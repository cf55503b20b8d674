import AASATransport
@preconcurrency import Glibc
import Testing

@testable import AASALoop

/// Paused handshakes and parked requests by what they wait for (docs/ARCHITECTURE.md, "The
/// path of a request"): an answer hands back only its own waiters.
@Suite("the loop's waiting room")
struct WaitingRoomTests {
    static func connection(_ fd: Int32) -> Connection {
        Connection(fd: fd, generation: 1, peer: sockaddr_storage())
    }

    @Test("an answer hands back its waiters only; a removed one is not handed back; everything in arrival order")
    func byReason() {
        let room = WaitingRoom(limit: HTTPLimits().waitingConnections)
        let connections = (0..<6).map { Self.connection(Int32($0)) }
        for (index, connection) in connections.enumerated() {
            #expect(room.add(connection, for: .certificate(chain: "c\(index % 3)")) == nil)
        }
        #expect(room.count == 6)
        #expect(room.take(.certificate(chain: "c1")).map(\.fd) == [1, 4])
        #expect(room.take(.certificate(chain: "c1")).isEmpty)
        room.remove(connections[0])
        #expect(room.count == 3 && connections[0].waitingFor == nil)
        // Waiting for another answer moves it.
        #expect(room.add(connections[2], for: .httpChallenge(token: "t")) == nil)
        #expect(room.take(.certificate(chain: "c2")).map(\.fd) == [5])
        #expect(room.takeAll().map(\.fd) == [3, 2])
        #expect(room.isEmpty)
    }

    @Test("past the limit the connection waiting longest leaves, handed back to be closed")
    func limit() {
        let room = WaitingRoom(limit: 3)
        let connections = (0..<5).map { Self.connection(Int32($0)) }
        for connection in connections.prefix(3) {
            #expect(room.add(connection, for: .onDemand(name: "a")) == nil)
        }
        room.remove(connections[0])
        #expect(room.add(connections[3], for: .onDemand(name: "b")) == nil)
        #expect(room.add(connections[4], for: .onDemand(name: "b"))?.fd == 1)
        #expect(room.count == 3)
        #expect(room.takeAll().map(\.fd) == [2, 3, 4])
    }

    /// A connection from 10.0.0.`host`.
    static func connection(_ fd: Int32, host: UInt8) -> Connection {
        var storage = sockaddr_storage()
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_addr.s_addr = UInt32(10 | UInt32(host) << 24)
            }
        }
        return Connection(fd: fd, generation: 1, peer: storage)
    }

    @Test("a full room sends away the busiest source's longest waiting, never another client's")
    func bySource() {
        let room = WaitingRoom(limit: 4)
        // A flood from 10.0.0.1 waiting for one certificate (no share spent: it is already loading).
        for fd in 0..<3 { #expect(room.add(Self.connection(Int32(fd), host: 1), for: .certificate(chain: "c")) == nil) }
        let real = Self.connection(10, host: 2)
        #expect(room.add(real, for: .httpChallenge(token: "t")) == nil)
        // The room is full: each new flood connection pushes out the flood's own oldest.
        for fd in 3..<8 {
            #expect(room.add(Self.connection(Int32(fd), host: 1), for: .certificate(chain: "c"))?.fd == Int32(fd - 3))
        }
        #expect(real.waitingFor == .httpChallenge(token: "t"))
        // Another real client of a source with fewer waiting also pushes out the flood's oldest.
        #expect(room.add(Self.connection(11, host: 3), for: .certificate(chain: "d"))?.fd == 5)
        #expect(room.take(.httpChallenge(token: "t")).map(\.fd) == [10])
    }

    /// The work a wake-up costs: connections handed back (each then tried again) over M
    /// answers with N waiting for N / 8 certificates, against trying every waiter per wake.
    @Test("N waiting, M answers: each answer costs its own waiters, not all N")
    func work() {
        let waiting = 400
        let answers = 50
        let room = WaitingRoom(limit: 1024)
        var handedBack = 0
        var tries = 0
        for index in 0..<waiting {
            _ = room.add(Self.connection(Int32(index)), for: .certificate(chain: "c\(index % (waiting / 8))"))
        }
        for answer in 0..<answers {
            let ready = room.take(.certificate(chain: "c\(answer)"))
            handedBack += ready.count
            // Each tried again finds its certificate loaded: none waits again.
            tries += ready.count
        }
        // Before: every wake-up tried every paused handshake still waiting.
        var before = 0
        var left = waiting
        for _ in 0..<answers {
            before += left
            left -= 8
        }
        print("waiting room: \(waiting) waiting, \(answers) answers: \(tries) tries (every waiter per wake: \(before))")
        #expect(handedBack == answers * 8)
        #expect(tries * 10 < before)
        #expect(room.count == waiting - answers * 8)
    }

    /// A connection from 2001:db8:2:`subnet`::1, one of the /64s of one /48.
    static func connection(_ fd: Int32, subnet: UInt16) -> Connection {
        var storage = sockaddr_storage()
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                withUnsafeMutableBytes(of: &address.pointee.sin6_addr) { bytes in
                    for (index, byte) in [0x20, 0x01, 0x0d, 0xb8, 0, 2, UInt8(subnet >> 8), UInt8(subnet & 0xFF)]
                        .enumerated()
                    {
                        bytes[index] = byte
                    }
                    bytes[15] = 1
                }
            }
        }
        return Connection(fd: fd, generation: 1, peer: storage)
    }

    @Test("a flood from every /64 of one /48 pushes out its own connections, not another client's")
    func byBlock() {
        let room = WaitingRoom(limit: 16)
        // A real client with two connections waiting: more than any one /64 of the flood.
        let real = [Self.connection(1000, host: 2), Self.connection(1001, host: 2)]
        for connection in real { #expect(room.add(connection, for: .httpChallenge(token: "t")) == nil) }
        var evicted: [Int32] = []
        for subnet in 0..<UInt16(4096) {
            if let leaving = room.add(Self.connection(Int32(subnet), subnet: subnet), for: .certificate(chain: "c")) {
                evicted.append(leaving.fd)
            }
        }
        #expect(evicted.count == 4096 + 2 - 16)
        #expect(real.allSatisfy { $0.waitingFor == .httpChallenge(token: "t") })
        #expect(room.take(.httpChallenge(token: "t")).map(\.fd) == [1000, 1001])
    }
}
