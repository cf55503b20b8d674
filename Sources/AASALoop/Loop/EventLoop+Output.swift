import AASASystem
import AASATransport
import Foundation

extension EventLoop {
    /// Sends what is queued. Returns false if the connection was closed.
    @discardableResult
    func flush(_ connection: Connection, now: UInt64) -> Bool {
        if !out.isEmpty {
            let queued = out.bytes
            if connection.hasPendingOutput {
                connection.enqueue(queued, then: out.tail)
            } else if let tail = out.tail {
                let sent = send(queued, then: tail.bytes, on: connection)
                guard sent >= 0 else { return false }
                if sent < queued.count {
                    connection.output = Array(queued[sent...])
                    connection.outputTail = tail
                } else {
                    connection.outputTail = tail.dropping(sent - queued.count)
                }
                connection.outputOffset = 0
            } else {
                // The common case: send straight from the loop's buffer (or the response
                // cache), keep only a remainder. A failed send closed the connection, which
                // emptied `out`.
                let sent = send(queued, on: connection)
                guard sent >= 0 else { return false }
                if sent < queued.count { connection.output = Array(queued[sent...]) }
                connection.outputOffset = 0
            }
            out.removeAll()
        }
        if connection.hasPendingOutput {
            let sent: Int
            if let tail = connection.outputTail {
                sent = connection.output.withUnsafeBytes {
                    send(
                        UnsafeRawBufferPointer(rebasing: $0[connection.outputOffset...]), then: tail.bytes,
                        on: connection)
                }
                guard sent >= 0 else { return false }
                let fromOutput = min(sent, connection.output.count - connection.outputOffset)
                connection.outputOffset += fromOutput
                connection.outputTail = tail.dropping(sent - fromOutput)
            } else {
                sent = connection.output.withUnsafeBytes {
                    send(UnsafeRawBufferPointer(rebasing: $0[connection.outputOffset...]), on: connection)
                }
                guard sent >= 0 else { return false }
                connection.outputOffset += sent
            }
            if sent > 0 { schedule(connection, .write, now: now) }
        }
        if connection.hasPendingOutput {
            if connection.phase != .writing { schedule(connection, .write, now: now) }
            connection.phase = .writing
            watchWrites(connection)
            return true
        }
        // Drained: an idle connection keeps no buffers (10,000 idle clients cost almost nothing).
        connection.output = []
        connection.outputOffset = 0
        connection.outputTail = nil
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

    /// Sends `bytes` until done or EAGAIN; returns the count sent, or -1 after closing the
    /// connection on an error (the peer reset it, for example).
    private func send(_ bytes: UnsafeRawBufferPointer, on connection: Connection) -> Int {
        if let tls = connection.tls {
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
        return sendPlain(bytes, then: nil, on: connection)
    }

    /// `send` of `bytes`, then `body` (a response's head and a file's body): plain sockets
    /// get both in one sendmsg(2); TLS writes one after the other.
    private func send(_ bytes: UnsafeRawBufferPointer, then body: UnsafeRawBufferPointer, on connection: Connection)
        -> Int
    {
        if connection.tls != nil {
            let first = send(bytes, on: connection)
            guard first == bytes.count else { return first }
            let second = send(body, on: connection)
            return second < 0 ? -1 : first + second
        }
        return sendPlain(bytes, then: body, on: connection)
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
