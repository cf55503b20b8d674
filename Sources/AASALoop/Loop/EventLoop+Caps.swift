import CSystemShims
@preconcurrency import Glibc

/// The caps on connections and handshakes in progress, and memory given back after a burst
/// (docs/security.md, "Connections and handshakes in total").
extension EventLoop {
    /// The connections this loop may hold: its share of `--max-connections`, or of the
    /// descriptors left after the reserve for reloads and the admin listener
    /// (`DescriptorBudget`, one relaxed atomic load), whichever is smaller. One ceiling, so
    /// both limits close the longest idle connection first and stop accepting the same way.
    var connectionCeiling: Int {
        guard let budget = settings.descriptors else { return settings.maxConnections }
        return min(settings.maxConnections, budget.ceiling(settings.descriptorRole))
    }

    /// Whether another connection fits: under the ceiling, or an idle keep-alive connection
    /// can make room.
    var hasRoomForConnection: Bool {
        openConnections < connectionCeiling || longestIdle != nil
    }

    /// The keep-alive connection idle the longest: one that gave its TLS buffers back first,
    /// then a plain one, then one idle under 100 ms. Each queue is in deadline order.
    private var longestIdle: Connection? {
        deadlines[TimeoutClass.keepAliveReleased.rawValue].head ?? deadlines[TimeoutClass.keepAlive.rawValue].head
            ?? deadlines[TimeoutClass.keepAliveHoldingBuffers.rawValue].head
    }

    /// Called before each accept. At the ceiling with nothing idle, accepting stops until a
    /// connection closes or goes idle (`acceptWaiting`): the client waits in the listen
    /// backlog rather than being refused, and nothing spins.
    func mayAccept() -> Bool {
        if hasRoomForConnection { return true }
        if !acceptWaiting { counted.acceptsDeferred += 1 }
        acceptWaiting = true
        stopAccepting()
        return false
    }

    /// Takes the listeners out of the epoll set while this loop cannot accept, so that it is
    /// not woken for every connection that the loops sharing a socket systemd passed take.
    func stopAccepting() {
        guard listenersRegistered else { return }
        listenersRegistered = false
        for fd in [listener, secureListener] where fd >= 0 { epoll.remove(fd) }
    }

    /// Puts the listeners back; adding an edge-triggered socket reports the connections
    /// already waiting, and this turn accepts them at once.
    func resumeAccepting() {
        guard !listenersRegistered else { return }
        do {
            try registerListeners()
            listenersRegistered = true
            acceptAgain = true
        } catch {
            // epoll_ctl(2) ADD fails only without memory (ENOMEM, ENOSPC): a loop that can
            // never accept again must stop loudly rather than serve on silently.
            control.fail("\(error)")
        }
    }

    /// Called with a connection just accepted: past the connection cap the longest idle
    /// connection goes; past the handshake cap, the oldest handshake in progress does. A
    /// flood of ClientHellos that never finish so holds at most the cap, and a client that
    /// finishes its handshake within the time the flood takes to send that many is served.
    func makeRoom(secure: Bool) {
        if openConnections >= connectionCeiling, let idle = longestIdle {
            counted.idleClosedAtCap += 1
            close(idle)
        }
        let handshakes = deadlines[TimeoutClass.handshake.rawValue]
        if secure, handshakes.count >= settings.maxHandshakes, let oldest = handshakes.head {
            counted.handshakesClosedAtCap += 1
            close(oldest)
        }
    }

    /// After a burst of closes, the freed memory goes back to the system once a second has
    /// passed and the loop wakes with nothing to do (`idle`: a wait that found no event; a
    /// due trim makes the next wait return at once): malloc_trim(3), every arena, not only
    /// this thread's. Without it the process keeps its peak resident for good. At most once
    /// per `trimDelay` per loop, and not while the loop is saturated.
    func giveBackMemory(now: UInt64, idle: Bool) {
        if trimDue == 0 {
            trimDue = now + settings.trimDelay
        } else if now >= trimDue && idle {
            trimDue = 0
            closedSinceTrim = 0
            malloc_trim(0)
        }
    }
}
