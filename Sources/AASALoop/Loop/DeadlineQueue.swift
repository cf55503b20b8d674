/// The connections of one timeout class (handshake, request head, keep-alive, write,
/// linger), in deadline order. Every connection of a class gets the same duration from the
/// loop's clock, which only moves forward, so appending keeps the list sorted: the next
/// deadline is the head, and scheduling, rescheduling and removing are O(1) (lwan's
/// `lwan-tq.c` does the same for its one class). The links live in `Connection`.
final class DeadlineQueue {
    var head: Connection?
    var tail: Connection?
    /// How many are queued: the handshakes in progress, for the handshake cap.
    var count = 0

    func append(_ connection: Connection) {
        connection.queuePrevious = tail
        connection.queueNext = nil
        if let tail { tail.queueNext = connection } else { head = connection }
        tail = connection
        count += 1
    }

    func remove(_ connection: Connection) {
        if let previous = connection.queuePrevious {
            previous.queueNext = connection.queueNext
        } else {
            head = connection.queueNext
        }
        if let next = connection.queueNext {
            next.queuePrevious = connection.queuePrevious
        } else {
            tail = connection.queuePrevious
        }
        connection.queuePrevious = nil
        connection.queueNext = nil
        count -= 1
    }
}

/// Which deadline a connection is under; each has one duration per loop (`LoopSettings`).
/// An idle TLS connection keeps OpenSSL's buffers for `keepAliveHoldingBuffers` (the next
/// request on a busy connection reuses them), then gives them back and waits out the rest
/// of its keep-alive time as `keepAliveReleased`.
enum TimeoutClass: Int, CaseIterable {
    case handshake, requestHead, keepAlive, keepAliveHoldingBuffers, keepAliveReleased, write, linger
}
