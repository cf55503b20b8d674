import AASATransport

/// Paused handshakes and parked requests (docs/ARCHITECTURE.md, "The path of a request"):
/// each waits in the loop's `WaitingRoom` under what it waits for, and a wake-up tries again
/// only those whose answer came (`LoopControl.wake(for:)`); a new snapshot or a wake-up that
/// names nothing (an order that failed, the board stopping) tries all of them.
extension EventLoop {
    /// `connection` waits for `reason` (a wait the callback did not name waits for the next
    /// wake-up that tries everything). Past the room's limit the connection waiting longest
    /// leaves, closed at the end of the turn (`closeEvicted`), counted.
    func wait(_ connection: Connection, for reason: WaitReason?) {
        guard let evicted = waiting.add(connection, for: reason ?? Self.unnamedWait) else { return }
        waiting.evicted.append(evicted)
    }

    /// Closes the connections that left the waiting room past its limit this turn (after the
    /// connection being served flushed its output: `close` discards the loop's).
    func closeEvicted() {
        let evicted = waiting.evicted
        waiting.evicted = []
        for connection in evicted where connections[Int(connection.fd)] === connection {
            counted.waitingClosedAtCap += 1
            if connection.isHandshaking { counted.handshakeFailures["waiting room full", default: 0] += 1 }
            close(connection)
        }
    }

    static var unnamedWait: WaitReason { .onDemand(name: "") }

    /// After a wake-up: the connections whose answer came (all of them after a new snapshot
    /// or a wake-up for everything) go on; one still waiting waits again.
    func resumeWaiting(everything: Bool, now: UInt64) {
        let answers = control.takeAnswers()
        guard !waiting.isEmpty else { return }
        let ready: [Connection]
        if everything || answers.everything {
            ready = waiting.takeAll()
        } else {
            ready = answers.reasons.flatMap { waiting.take($0) }
        }
        for connection in ready where connections[Int(connection.fd)] === connection {
            if connection.awaitingAnswer {
                connection.awaitingAnswer = false
            } else if let certificates {
                connection.tls?.resume(with: certificates)
            }
            readAndServe(connection, now: now)
        }
    }
}
