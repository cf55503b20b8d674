import AASASystem
import AASATransport
import Foundation

extension EventLoop {
    /// Sends what is queued. Returns false if the connection was closed.
    @discardableResult
    func flush(_ connection: Connection, now: UInt64) -> Bool {
        if !out.isEmpty {
            if connection.hasPendingOutput {
                connection.enqueue(out.bytes, then: out.tail)
            } else {
                // The common case: send straight from the loop's buffer (or the response
                // cache, or a file), keep only what the socket did not take. A failed send
                // closed the connection, which emptied `out`.
                let queued = out.bytes
                let sent = send(queued, then: out.tail.bytes, on: connection)
                guard sent >= 0 else { return false }
                if sent < queued.count + out.tail.count { connection.keep(queued, then: out.tail, after: sent) }
            }
            out.removeAll()
        }
        if connection.hasPendingOutput {
            let sent = connection.output.withUnsafeBytes {
                send(
                    UnsafeRawBufferPointer(rebasing: $0[connection.outputOffset...]), then: connection.tail.bytes,
                    on: connection)
            }
            guard sent >= 0 else { return false }
            connection.advance(by: sent)
            if sent > 0 { schedule(connection, .write, now: now) }
        }
        if connection.hasPendingOutput {
            if connection.phase != .writing { schedule(connection, .write, now: now) }
            connection.phase = .writing
            watchWrites(connection)
            return true
        }
        connection.releaseOutput()
        if !connection.isHandshaking { stopWatchingWrites(connection) }
        if connection.closeAfterWrite || connection.peerClosed {
            if connection.lingerOnClose && !connection.peerClosed {
                startLingering(connection, now: now)
            } else {
                close(connection)
            }
            return false
        }
        if connection.phase == .writing {
            if connection.pending.isEmpty {
                connection.phase = .idle
                scheduleIdle(connection, now: now)
            } else {
                connection.phase = .readingHead
                schedule(connection, .requestHead, now: now)
            }
        }
        return true
    }

    /// The one send: `bytes`, then `tail` (a response's head and a file's body) until done or
    /// EAGAIN. Plain sockets get both in one sendmsg(2); TLS writes one after the other.
    /// Returns the count sent, or -1 after closing the connection on an error (the peer reset
    /// it, for example).
    private func send(
        _ bytes: UnsafeRawBufferPointer, then tail: UnsafeRawBufferPointer?, on connection: Connection
    ) -> Int {
        guard let tls = connection.tls else { return sendPlain(bytes, then: tail, on: connection) }
        let first = send(bytes, over: tls, on: connection)
        guard first == bytes.count, let tail else { return first }
        let second = send(tail, over: tls, on: connection)
        return second < 0 ? -1 : first + second
    }

    private func send(_ bytes: UnsafeRawBufferPointer, over tls: TLSSession, on connection: Connection) -> Int {
        var sent = 0
        while sent < bytes.count {
            let (count, progress) = tls.write(UnsafeRawBufferPointer(rebasing: bytes[sent...]))
            switch progress {
            case .done: sent += count
            case .wantRead, .wantWrite, .paused: return sent
            case .closed, .failed:
                close(connection)
                return -1
            }
        }
        return sent
    }

    /// Sends `bytes` and then `body` on a plain socket until done or EAGAIN: one sendmsg(2)
    /// while both are left, send(2) for what remains of one (`Posix.send`).
    private func sendPlain(
        _ bytes: UnsafeRawBufferPointer, then body: UnsafeRawBufferPointer?, on connection: Connection
    )
        -> Int
    {
        let total = bytes.count + (body?.count ?? 0)
        var sent = 0
        while sent < total {
            let first: UnsafeRawBufferPointer
            let second: UnsafeRawBufferPointer?
            if sent < bytes.count {
                (first, second) = (UnsafeRawBufferPointer(rebasing: bytes[sent...]), body)
            } else if let body {
                (first, second) = (UnsafeRawBufferPointer(rebasing: body[(sent - bytes.count)...]), nil)
            } else {
                break
            }
            do {
                switch try Posix.send(connection.fd, first, second, more: connection.closeAfterWrite) {
                case .processed(let count): sent += count
                case .wouldBlock: return sent
                }
            } catch {
                close(connection)
                return -1
            }
        }
        return sent
    }

    /// Half-closes after an error response and drops what the client still sends, so it
    /// can finish sending and read our status instead of getting a reset (RFC 9112 §9.6;
    /// nginx's lingering close). Ends when the client closes, or past the budget or deadline.
    func startLingering(_ connection: Connection, now: UInt64) {
        connection.tls?.shutdown()
        // A failure (the peer reset meanwhile) leaves lingering to find the end of file.
        try? Posix.shutdownWrite(connection.fd)
        connection.phase = .lingering
        connection.lingerBudget = settings.lingerBytes
        schedule(connection, .linger, now: now)
        stopWatchingWrites(connection)
        var budget = TurnBudget(settings)
        discardLingering(connection, budget: &budget)
    }

    /// Reads and drops (raw bytes, even on TLS: nothing in them is answered any more),
    /// within the turn's share.
    func discardLingering(_ connection: Connection, budget: inout TurnBudget) {
        connection.readPending = false
        while true {
            if budget.bytes <= 0 {
                connection.readPending = true
                return yieldTurn(connection)
            }
            do {
                switch try Posix.read(connection.fd, into: scratch) {
                case .processed(let count):
                    connection.lingerBudget -= count
                    budget.bytes -= count
                    if count == 0 || connection.lingerBudget <= 0 { return close(connection) }
                case .wouldBlock:
                    return
                }
            } catch {
                return close(connection)
            }
        }
    }
}
