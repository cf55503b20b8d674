import AASASystem
import Foundation
@preconcurrency import Glibc
import Synchronization
import Testing

/// The wrappers on descriptors, over socket pairs: peek, poll and EINTR, and the process
/// stopping on EBADF and EFAULT.
@Suite("Posix wrappers on descriptors")
struct PosixDescriptorTests {
    /// A connected, non-blocking pair of stream sockets.
    static func pair() -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    static func peek(_ fd: Int32, into byte: inout UInt8) throws(SystemError) -> IOResult<Int> {
        let result = withUnsafeMutableBytes(of: &byte) { raw in
            Result { () throws(SystemError) in try Posix.peek(fd, into: raw) }
        }
        return try result.get()
    }

    @Test("peek: nothing yet would block; a byte is seen and left; a close is zero")
    func peek() throws {
        let (server, client) = Self.pair()
        defer { Posix.close(server) }
        var byte: UInt8 = 0
        guard case .wouldBlock = try Self.peek(server, into: &byte) else {
            Issue.record("an empty socket did not block")
            return
        }
        let record: [UInt8] = [0x16, 3, 1]
        _ = record.withUnsafeBytes { try? Posix.write(client, $0) }
        guard case .processed(1) = try Self.peek(server, into: &byte) else {
            Issue.record("the byte sent was not peeked")
            return
        }
        #expect(byte == 0x16)
        // Still there: a read gets all three bytes.
        #expect(try Posix.readAll(server, limit: 3) == record)
        Posix.close(client)
        guard case .processed(0) = try Self.peek(server, into: &byte) else {
            Issue.record("the peer's close did not peek as zero")
            return
        }
    }

    @Test("poll: nothing to read times out with no events; a byte to read is POLLIN")
    func poll() throws {
        let (server, client) = Self.pair()
        defer {
            Posix.close(server)
            Posix.close(client)
        }
        #expect(try Posix.poll(server, events: Int16(POLLIN), milliseconds: { 0 }) == 0)
        _ = [UInt8(1)].withUnsafeBytes { try? Posix.write(client, $0) }
        #expect(try Posix.poll(server, events: Int16(POLLIN), milliseconds: { 0 }) & Int16(POLLIN) != 0)
    }

    /// A signal that interrupts poll(2) (EINTR) is no timeout and no error: the wait goes on for
    /// the time that remains, which `milliseconds` is asked for again.
    @Test("poll interrupted by a signal waits again for the time that remains")
    func pollInterrupted() throws {
        Interrupter.install()
        let (server, client) = Self.pair()
        defer {
            Posix.close(server)
            Posix.close(client)
        }
        let asked = Atomic<Int>(0)
        let thread = Mutex<pthread_t?>(nil)
        let outcome = Mutex<Result<Int16, SystemError>?>(nil)
        // The thread lives until the signals stop, so none is sent to a thread that has ended.
        let release = DispatchSemaphore(value: 0)
        let poller = Thread {
            let current = Interrupter.prepareCurrentThread()
            thread.withLock { $0 = current }
            let result = Result { () throws(SystemError) in
                // Long the first time; once interrupted, asked again: no time left.
                try Posix.poll(server, events: Int16(POLLIN)) {
                    asked.add(1, ordering: .relaxed).newValue == 1 ? 10_000 : 0
                }
            }
            outcome.withLock { $0 = result }
            release.wait()
        }
        poller.start()
        // Signals until the wait is over: it may not be in poll(2) yet when a signal comes.
        Interrupter.signal(for: 5, target: { thread.withLock { $0 } }, while: { outcome.withLock { $0 } == nil })
        release.signal()
        let result = try #require(outcome.withLock { $0 })
        #expect(try result.get() == 0)
        #expect(asked.load(ordering: .relaxed) == 2)
    }

    @Test("close of a descriptor that is not open stops the process (EBADF is a bug)")
    func closeOfClosedDescriptor() async {
        await #expect(processExitsWith: .failure) {
            Posix.close(-1)
        }
    }

    @Test("fsync of a descriptor that is not open stops the process (EBADF is a bug)")
    func checkOfClosedDescriptor() async {
        await #expect(processExitsWith: .failure) {
            try? Posix.fsync(-1)
        }
    }

    @Test("a read into a bad address stops the process (EFAULT is a bug)")
    func readIntoBadAddress() async {
        await #expect(processExitsWith: .failure) {
            guard let fd = try? Posix.open("/dev/zero", O_RDONLY),
                let bad = UnsafeMutableRawPointer(bitPattern: 8)
            else { return }
            _ = try? Posix.read(fd, into: UnsafeMutableRawBufferPointer(start: bad, count: 8))
        }
    }
}
