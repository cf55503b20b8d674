import Testing

@testable import AASALoop

/// The deadline queues: appending keeps order, rescheduling moves a connection to the tail,
/// removing from anywhere keeps the links whole.
@Suite("deadline queues")
struct DeadlineQueueTests {
    static func connections(_ count: Int) -> [Connection] {
        (0..<count).map { Connection(fd: Int32($0), generation: 1, peer: .init()) }
    }

    static func order(_ queue: DeadlineQueue) -> [Int32] {
        var fds: [Int32] = []
        var next = queue.head
        while let connection = next {
            fds.append(connection.fd)
            if let previous = connection.queuePrevious { #expect(previous.queueNext === connection) }
            next = connection.queueNext
        }
        return fds
    }

    @Test("append, remove at head, middle and tail, then append again")
    func links() {
        let queue = DeadlineQueue()
        let all = Self.connections(5)
        all.forEach(queue.append)
        #expect(Self.order(queue) == [0, 1, 2, 3, 4])
        queue.remove(all[2])
        queue.remove(all[0])
        queue.remove(all[4])
        #expect(Self.order(queue) == [1, 3])
        queue.append(all[0])
        queue.remove(all[1])
        #expect(Self.order(queue) == [3, 0])
        queue.remove(all[3])
        queue.remove(all[0])
        #expect(queue.head == nil)
        queue.append(all[4])
        #expect(Self.order(queue) == [4])
    }
}
