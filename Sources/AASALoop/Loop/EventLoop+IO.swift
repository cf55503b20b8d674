import AASASystem
import AASATransport
import Foundation

extension EventLoop {
    /// Reads until EAGAIN (edge-triggered), answers every complete request, and writes the
    /// answers, pipelined ones coalesced into one send, within the connection's share of
    /// this turn (`TurnBudget`); past it the connection waits for the next turn. A client
    /// whose unread answers reach the high-water mark is neither parsed nor read from until
    /// they drain (`flush` brings it back).
    func readAndServe(_ connection: Connection, now: UInt64) {
        thread.check()
        var budget = TurnBudget(settings)
        if connection.phase == .lingering { return discardLingering(connection, budget: &budget) }
        if let tls = connection.tls, !tls.established {
            if !connection.checkedForPlainHTTP {
                guard let isTLS = startsWithHandshakeRecord(connection) else { return }
                connection.checkedForPlainHTTP = true
                if !isTLS { return refusePlainHTTP(connection, now: now) }
            }
            guard continueHandshake(tls, on: connection, now: now) else { return }
        }
        while true {
            if connection.awaitingAnswer { return }
            if connection.parsePaused { serveBuffered(connection, now: now, budget: &budget) }
            connection.readPending = false
            while !connection.closeAfterWrite && !connection.peerClosed && !connection.parsePaused {
                if budget.isSpent || outputBacklog(connection) >= settings.outputHighWater {
                    connection.readPending = true
                    break
                }
                guard let count = receive(on: connection) else { return }
                if count == 0 { break }
                budget.bytes -= count
                let bytes = UnsafeBufferPointer(start: scratchBytes, count: count)
                consume(bytes, on: connection, now: now, budget: &budget)
                // A short read emptied the socket's queue; anything that arrives later raises
                // a new edge, so the read that would only say EAGAIN is skipped (as nginx
                // does). TLS asks OpenSSL, which may still hold bytes of the next record.
                if connection.tls?.drained ?? (count < scratch.count) { break }
            }
            guard flush(connection, now: now), connection.wantsTurn, !connection.hasPendingOutput else { return }
            if connection.closeAfterWrite || connection.peerClosed {
                connection.readPending = false
                if !connection.parsePaused { return }
            }
            if budget.isSpent { return yieldTurn(connection) }
        }
    }

    /// Puts `connection` on the list the loop continues after its next wait (which then
    /// does not block), behind every connection that became ready meanwhile.
    func yieldTurn(_ connection: Connection) {
        guard !connection.yielded else { return }
        connection.yielded = true
        yielded.append(connection)
    }

    /// Continues the connections that used up their share of the last turn.
    func continueYielded(_ waiting: [Connection], now: UInt64) {
        for connection in waiting where connections[Int(connection.fd)] === connection {
            connection.yielded = false
            if connection.wantsTurn && !connection.hasPendingOutput { readAndServe(connection, now: now) }
        }
    }

    /// Reads into the scratch buffer: the byte count, 0 when there is nothing more for now
    /// (or the peer closed, which sets `peerClosed`), nil after closing on an error.
    private func receive(on connection: Connection) -> Int? {
        if let tls = connection.tls {
            let (count, progress) = tls.read(into: scratch)
            switch progress {
            case .done: return count
            case .wantRead, .paused: return 0
            case .wantWrite:
                watchWrites(connection)
                return 0
            case .closed:
                connection.peerClosed = true
                return 0
            case .failed:
                close(connection)
                return nil
            }
        }
        do {
            switch try Posix.read(connection.fd, into: scratch) {
            case .processed(let count):
                if count == 0 { connection.peerClosed = true }
                return count
            case .wouldBlock:
                return 0
            }
        } catch {
            close(connection)
            return nil
        }
    }

    /// Drives the handshake (non-blocking, SSL_do_handshake(3)). True once it is done.
    private func continueHandshake(_ tls: TLSSession, on connection: Connection, now: UInt64) -> Bool {
        switch tls.handshake() {
        case .done:
            counted.handshakes += 1
            // A TLS-ALPN-01 validation ends with its handshake (RFC 8737 §3: no data follows).
            if handshakeHooks != nil, tls.selectedACMETLS {
                close(connection)
                return false
            }
            connection.phase = .idle
            scheduleIdle(connection, now: now)
            if connection.watchingWrites && !connection.hasPendingOutput { stopWatchingWrites(connection) }
            // Nothing of ours carries the ACK of the client's last flight: acknowledge it now,
            // or a client with Nagle's algorithm on holds its request ~40 ms (tcp(7)
            // TCP_QUICKACK). In the other handshakes the server's last flight or its ticket
            // follows the client's and carries it.
            if tls.clientSpokeLast { acknowledgeNow(connection) }
            return true
        case .wantRead:
            return false
        case .wantWrite:
            watchWrites(connection)
            return false
        case .paused:
            // Waits for its answer (or the next snapshot), within the handshake deadline.
            wait(connection, for: tls.waitingFor)
            return false
        case .closed:
            counted.handshakeFailures["closed", default: 0] += 1
            close(connection)
            return false
        case .failed(let reason):
            counted.handshakeFailures[Self.handshakeFailureReason(reason), default: 0] += 1
            close(connection)
            return false
        }
    }

    /// OpenSSL's reason text without the code and location: `wrong version number`,
    /// `unsupported protocol`, `no shared cipher` … (a small, bounded label set).
    static func handshakeFailureReason(_ message: String) -> String {
        guard let last = message.split(separator: ":").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty else {
            return "other"
        }
        return String(last.prefix(48))
    }

    /// Asks epoll for writability (only while something waits to be written: a writable
    /// socket would wake the loop forever); registers the socket if it was not yet.
    func watchWrites(_ connection: Connection) {
        guard !connection.watchingWrites else { return }
        connection.watchingWrites = true
        let events = Epoll.readable | Epoll.writable | Epoll.hangUp | Epoll.edgeTriggered
        if connection.registered {
            try? epoll.modify(connection.fd, events: events, data: connection.eventData)
        } else {
            connection.registered = (try? epoll.add(connection.fd, events: events, data: connection.eventData)) != nil
        }
    }

    func stopWatchingWrites(_ connection: Connection) {
        guard connection.watchingWrites else { return }
        connection.watchingWrites = false
        try? epoll.modify(
            connection.fd, events: Epoll.readable | Epoll.hangUp | Epoll.edgeTriggered, data: connection.eventData)
    }

    func outputBacklog(_ connection: Connection) -> Int {
        connection.pendingOutputCount + out.byteCount
    }

    /// Serves the requests in newly read bytes; keeps the rest (an incomplete head, or
    /// requests held back by the high-water mark or the turn's budget) for later.
    func consume(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, now: UInt64, budget: inout TurnBudget)
    {
        let wasIdle = connection.pending.isEmpty
        let requestsBefore = budget.requests
        if wasIdle {
            let end = serveHTTP1(bytes, on: connection, budget: &budget)
            if end < bytes.count { connection.pending = Array(bytes[end...]) }
        } else {
            connection.pending.append(contentsOf: bytes)
            servePending(connection, budget: &budget)
        }
        noteHeadProgress(connection, newHead: wasIdle || budget.requests < requestsBefore, now: now)
    }

    /// Answers requests held in `pending` (after the output drained, or in a later turn).
    func serveBuffered(_ connection: Connection, now: UInt64, budget: inout TurnBudget) {
        let requestsBefore = budget.requests
        servePending(connection, budget: &budget)
        noteHeadProgress(connection, newHead: budget.requests < requestsBefore, now: now)
    }

    /// Parses `pending` from its start and drops what was answered: one move of the rest
    /// per call, never per request.
    private func servePending(_ connection: Connection, budget: inout TurnBudget) {
        let end = connection.pending.withUnsafeBufferPointer {
            serveHTTP1($0, on: connection, budget: &budget)
        }
        if end == connection.pending.count {
            connection.pending = []
        } else if end > 0 {
            connection.pending.removeSubrange(0..<end)
        }
    }

    /// Sets the phase and deadline after bytes were parsed; `newHead` when what remains in
    /// `pending` began after the last read started (the connection was idle, or a request
    /// was answered since).
    private func noteHeadProgress(_ connection: Connection, newHead: Bool, now: UInt64) {
        if connection.pending.isEmpty {
            connection.phase = .idle
            scheduleIdle(connection, now: now)
        } else if connection.parsePaused {
            // Whole requests wait for the output to drain: the write deadline (set by flush)
            // or the next turn decides, not the head deadline.
        } else {
            // Part of a head: a client with Nagle's algorithm on that writes its request in
            // pieces sends the next piece only once this one is acknowledged.
            acknowledgeNow(connection)
            if connection.phase != .readingHead || newHead {
                // The head deadline runs from the first byte of the request and is not extended
                // by trickling bytes (a slowloris client gets no more time).
                connection.phase = .readingHead
                schedule(connection, .requestHead, now: now)
            }
        }
    }

    /// Has the kernel acknowledge what it received at once rather than after the delayed-ACK
    /// timer (~40 ms), for a peer that waits for the ACK before sending more (tcp(7)
    /// TCP_QUICKACK, which the kernel clears again by itself). Best effort: a failure only
    /// leaves the kernel's timing as it was.
    func acknowledgeNow(_ connection: Connection) {
        try? Posix.setOption(connection.fd, level: Int32(IPPROTO_TCP), name: TCP_QUICKACK, value: 1)
    }

    /// Whether the first byte on the HTTPS port is a TLS handshake record (content type 22,
    /// RFC 8446 §5.1), peeked without consuming it; nil when nothing has arrived yet.
    private func startsWithHandshakeRecord(_ connection: Connection) -> Bool? {
        var first: UInt8 = 0
        let peeked = withUnsafeMutableBytes(of: &first) { try? Posix.peek(connection.fd, into: $0) }
        switch peeked {
        case .processed(1)?: return first == 0x16
        case .wouldBlock?: return nil
        // An error or a close is left for the handshake to find and report.
        default: return true
        }
    }

    /// Plain HTTP sent to the HTTPS port: a clear-text 400 saying so, then a close, as nginx
    /// does, rather than a TLS alert the client cannot read. Counted and logged as every
    /// answer is (`finishUnparsed`), and as a failed handshake.
    private func refusePlainHTTP(_ connection: Connection, now: UInt64) {
        connection.tls = nil
        connection.phase = .idle
        writer.connectionHeader = .close
        finishUnparsed(writer.refusePlainHTTP(), on: connection)
        counted.handshakeFailures["plain HTTP", default: 0] += 1
        flush(connection, now: now)
    }
}
