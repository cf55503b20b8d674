import AASASystem
import AASATransport
import CSystemShims
@preconcurrency import Glibc

/// One event loop: one thread, one epoll set, one SO_REUSEPORT listener, and the
/// connections it accepted (lwan's and h2o's per-core loops). Nothing here is shared with
/// another thread except the published content and the control flags. It knows no handler
/// and no content but through `RequestHandler` and `LoopContent`.
public final class EventLoop<Handler: RequestHandler> {
    static var listenerTag: UInt64 { .max }
    static var wakeTag: UInt64 { .max - 1 }
    static var secureListenerTag: UInt64 { .max - 2 }
    static var scratchSize: Int { 64 * 1024 }

    let epoll: Epoll
    let control: LoopControl
    /// Where the handler's content is published (nil: nothing is).
    let contents: ContentBox<Handler.Content>?
    let settings: LoopSettings
    let parser: HTTPRequestParser
    /// The generation of `contents` the handler serves; taken at a wake-up after a publication.
    var contentGeneration: Int
    var listener: Int32
    /// The HTTPS listener, or -1.
    var secureListener: Int32
    /// The configured address a listener answers when its socket (one systemd passed) is
    /// wider: a connection that arrived on another address is closed at accept (`InheritedSocket.scope`).
    package var listenerScope: SocketAddress?
    package var secureListenerScope: SocketAddress?
    /// The served content's certificates, read in handshakes (the rest is the handler's).
    var certificates: CertificateStore?
    /// What the loop hands each request to (the sites' or the admin listener's), held inline:
    /// a handler that is a struct is reached through `inout self` (`RequestHandler`).
    var handler: Handler
    /// ACME's TLS-ALPN-01 certificates and on-demand names, asked during handshakes (nil
    /// without ACME).
    let handshakeHooks: (any HandshakeHooks)?
    /// Paused handshakes and parked requests (`RequestOutcome.Closing.deferred`), by what
    /// they wait for; tried again when it comes (`EventLoop+Waiting.swift`).
    let waiting: WaitingRoom
    /// The thread `run` claims; loop-bound state asserts it in debug builds.
    package var thread = LoopThread()
    var connections: [Connection?] = []
    var openConnections = 0
    var nextGeneration: UInt32 = 1
    let dates = DateCache()
    var accessLog: AccessLog
    /// Responses for the connection being served, sent at the end of its batch.
    let out = OutputBuffer()
    /// What the handler writes `out` through.
    let writer: ResponseWriter
    let scratch: UnsafeMutableRawBufferPointer
    /// `scratch` as bytes: the buffer every read lands in.
    var scratchBytes: UnsafePointer<UInt8>? { UnsafePointer(scratch.baseAddress?.assumingMemoryBound(to: UInt8.self)) }
    var acceptPausedUntil: UInt64 = 0
    /// Whether the listeners are in the epoll set (`stopAccepting`, `resumeAccepting`).
    var listenersRegistered = true
    /// A listener stopped at its per-turn share of accepts: accept again next turn.
    var acceptAgain = false
    /// Accepting stopped at the loop's `connectionCeiling` with nothing idle to close: it goes
    /// on once a connection closes or goes idle (the clients wait in the listen backlog).
    var acceptWaiting = false
    /// Closes since memory was last given back, and when it will be (0: not due).
    var closedSinceTrim = 0
    var trimDue: UInt64 = 0
    /// Connections that used up their share of a turn, continued after the next wait.
    var yielded: [Connection] = []
    /// One queue per timeout class, indexed by `TimeoutClass.rawValue`.
    let deadlines = TimeoutClass.allCases.map { _ in DeadlineQueue() }
    /// No queued deadline is earlier: the queues are looked at only once the clock passes
    /// it (a per-iteration sweep of every queue head cost more than the request's parsing).
    /// Scheduling lowers it; removals leave it low, and the next sweep raises it again.
    var earliestDeadline = UInt64.max
    package var stopDeadline: UInt64?
    let statistics: LoopStatistics
    /// Counted since the last fold into `statistics` (at most once a millisecond, never per request).
    var counted: LoopStatistics.Totals
    var foldedOpenConnections = -1
    var foldedHandshakes = -1
    /// Counts are folded into `statistics` at most once per `foldInterval` (a fold per
    /// iteration, with its lock and its sweep of every slot, cost more than parsing a
    /// request); `foldPending` makes the loop wake for the fold it put off.
    static var foldInterval: UInt64 { 1_000_000 }
    var lastFold: UInt64 = 0
    var foldPending = false

    package init(
        listener: Int32, secureListener: Int32 = -1, control: LoopControl, contents: ContentBox<Handler.Content>?,
        handler: Handler, handshakeHooks: (any HandshakeHooks)? = nil, settings: LoopSettings,
        statistics: LoopStatistics = LoopStatistics()
    ) throws(SystemError) {
        self.handler = handler
        self.handshakeHooks = handshakeHooks
        epoll = try Epoll()
        self.listener = listener
        self.secureListener = secureListener
        self.statistics = statistics
        self.control = control
        self.contents = contents
        self.settings = settings
        parser = HTTPRequestParser(limits: settings.limits)
        waiting = WaitingRoom(limit: settings.limits.waitingConnections)
        counted = LoopStatistics.Totals(paths: Handler.countedPaths.count, kinds: Handler.countedKinds)
        contentGeneration = contents?.generation ?? 0
        writer = ResponseWriter(output: out, dates: dates)
        accessLog = AccessLog(format: settings.logFormat, enabled: settings.accessLog)
        scratch = .allocate(byteCount: Self.scratchSize, alignment: 16)
        if let content = contents?.current {
            certificates = content.certificates
            self.handler.serve(content)
        }
        try registerListeners()
        try epoll.add(control.wakeUp.fd, events: Epoll.readable, data: Self.wakeTag)
    }

    /// Adds the listeners to the epoll set. Loops sharing a socket systemd passed
    /// (`Listener.adopt`) are each woken for a new connection and race to accept it, a few
    /// wake-ups for one core each; EPOLLEXCLUSIVE would wake one, and a loop at its ceiling
    /// that took the wake-up would leave the connection waiting while the others had room. A
    /// loop that cannot accept takes its listeners out (`stopAccepting`).
    func registerListeners() throws(SystemError) {
        let listening = Epoll.readable | Epoll.edgeTriggered
        if listener >= 0 { try epoll.add(listener, events: listening, data: Self.listenerTag) }
        if secureListener >= 0 { try epoll.add(secureListener, events: listening, data: Self.secureListenerTag) }
    }

    deinit {
        scratch.deallocate()
    }

    /// Runs until stopped and every response in flight is finished (or the shutdown deadline).
    public func run() {
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 512)
        defer { events.deallocate() }
        thread.claim()
        dates.refresh()
        while true {
            let count: Int
            do {
                // Work left over from the last turn: look for new events without waiting.
                let busy = !yielded.isEmpty || acceptAgain
                count = try epoll.wait(into: events, timeout: busy ? 0 : waitTimeout(now: MonotonicClock.now()))
            } catch {
                // Anything but EINTR (which wait retries) is a broken epoll set: waiting again
                // would spin. Stop, and have the server stop loudly.
                control.fail("\(error)")
                break
            }
            let now = MonotonicClock.now()
            dates.refresh()
            var snapshotChanged = false
            if let contents, contents.generation != contentGeneration {
                snapshotChanged = true
                contentGeneration = contents.generation
                let content = contents.current
                certificates = content.certificates
                handler.serve(content)
            }
            var woken = false
            let carried = yielded
            yielded = []
            for index in 0..<count {
                let event = events[index]
                switch event.data.u64 {
                case Self.listenerTag: acceptConnections(from: listener, secure: false, now: now)
                case Self.secureListenerTag: acceptConnections(from: secureListener, secure: true, now: now)
                case Self.wakeTag:
                    control.wakeUp.drain()
                    woken = true
                default: handle(event.events, data: event.data.u64, now: now)
                }
            }
            if !carried.isEmpty { continueYielded(carried, now: now) }
            // Deadlines first: a connection they close makes room for the next accept at once.
            closeExpired(now: now)
            if acceptPausedUntil > 0 && now >= acceptPausedUntil { acceptPausedUntil = 0 }
            if acceptPausedUntil == 0 && acceptWaiting && hasRoomForConnection { acceptWaiting = false }
            if acceptPausedUntil == 0 && !acceptWaiting { resumeAccepting() }
            if acceptAgain {
                acceptAgain = false
                acceptConnections(from: listener, secure: false, now: now)
                acceptConnections(from: secureListener, secure: true, now: now)
            }
            if woken || snapshotChanged { resumeWaiting(everything: snapshotChanged, now: now) }
            if !waiting.evicted.isEmpty { closeEvicted() }
            if closedSinceTrim >= settings.trimAfterCloses { giveBackMemory(now: now, idle: count == 0) }
            accessLog.flush()
            foldPending = now &- lastFold < Self.foldInterval
            if !foldPending { foldCounts(now: now) }
            if control.stopping.load(ordering: .acquiring) {
                let deadline = stopDeadline ?? beginStop(now: now)
                if openConnections == 0 || now >= deadline { break }
            }
        }
        for connection in connections.compactMap({ $0 }) { close(connection) }
        accessLog.flush()
        foldCounts(now: MonotonicClock.now())
    }

    /// Adds what this loop counted since the last fold to `statistics`, where the admin
    /// loop reads it.
    private func foldCounts(now: UInt64) {
        lastFold = now
        counted.accessLogDropped += accessLog.takeDropped()
        let handshakes = deadlines[TimeoutClass.handshake.rawValue].count
        if !counted.isEmpty || foldedOpenConnections != openConnections || foldedHandshakes != handshakes {
            foldedOpenConnections = openConnections
            foldedHandshakes = handshakes
            statistics.fold(&counted, openConnections: openConnections, handshakesInProgress: handshakes)
        }
    }

    /// Stop accepting; close idle connections; let the others finish their response.
    /// Closes the listeners and idle connections; returns the time by which the rest must end.
    func beginStop(now: UInt64) -> UInt64 {
        let deadline = now + settings.shutdownTimeout
        stopDeadline = deadline
        for fd in [listener, secureListener] where fd >= 0 {
            epoll.remove(fd)
            Posix.close(fd)
        }
        listener = -1
        secureListener = -1
        for connection in connections.compactMap({ $0 }) {
            let quiet = connection.phase == .idle || connection.phase == .handshaking || connection.phase == .lingering
            if quiet && !connection.hasPendingOutput {
                close(connection)
            } else {
                connection.closeAfterWrite = true
            }
        }
        return deadline
    }

    func handle(_ events: UInt32, data: UInt64, now: UInt64) {
        thread.check()
        let fd = Int32(truncatingIfNeeded: data & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: data >> 32)
        // A stale event for a descriptor closed (and maybe reused) earlier in this batch.
        guard fd >= 0, Int(fd) < connections.count, let connection = connections[Int(fd)],
            connection.generation == generation
        else { return }
        // A handshake goes on whichever way the socket became ready.
        if events & (Epoll.readable | Epoll.hangUp) != 0 || connection.isHandshaking {
            readAndServe(connection, now: now)
        }
        if connections[Int(fd)] === connection, connection.phase != .lingering, events & Epoll.writable != 0 {
            // Drained at last: go on with what the high-water mark held back.
            if flush(connection, now: now), connection.wantsTurn, !connection.hasPendingOutput {
                readAndServe(connection, now: now)
            }
        }
    }

    /// Sets `connection`'s deadline to its class's duration from `now` and moves it to the
    /// tail of that class's queue (which keeps the queue in deadline order).
    func schedule(_ connection: Connection, _ timeoutClass: TimeoutClass, now: UInt64) {
        thread.check()
        let queue = deadlines[timeoutClass.rawValue]
        // Already last in its class (a busy keep-alive connection): only the time moves.
        if connection.timeoutClass == timeoutClass && queue.tail === connection {
            connection.deadline = now + settings.duration(timeoutClass)
            return
        }
        if let current = connection.timeoutClass { deadlines[current.rawValue].remove(connection) }
        connection.timeoutClass = timeoutClass
        connection.deadline = now + settings.duration(timeoutClass)
        deadlines[timeoutClass.rawValue].append(connection)
        if connection.deadline < earliestDeadline { earliestDeadline = connection.deadline }
    }

    /// Waiting for the next request: a TLS connection first holds its buffers a while.
    func scheduleIdle(_ connection: Connection, now: UInt64) {
        schedule(connection, connection.tls == nil ? .keepAlive : .keepAliveHoldingBuffers, now: now)
    }

    /// Drops connections past their deadline (a slow handshake or request head, an idle
    /// keep-alive, a client that stopped reading, a lingering close): only queue heads are
    /// looked at, never the whole table.
    func closeExpired(now: UInt64) {
        guard now >= earliestDeadline else { return }
        var earliest = UInt64.max
        for queue in deadlines {
            while let connection = queue.head, now >= connection.deadline {
                if connection.timeoutClass == .keepAliveHoldingBuffers && settings.duration(.keepAliveReleased) > 0 {
                    connection.tls?.releaseBuffers()
                    schedule(connection, .keepAliveReleased, now: now)
                    continue
                }
                if connection.isHandshaking { counted.handshakeFailures["timeout", default: 0] += 1 }
                close(connection)
            }
            if let head = queue.head { earliest = min(earliest, head.deadline) }
        }
        earliestDeadline = earliest
    }

    /// How long epoll may wait: until the next deadline (rounded up to the millisecond, so
    /// it fires on time, not a sweep later), the end of an accept pause, at most a second.
    func waitTimeout(now: UInt64) -> Int32 {
        var next = min(now + 1_000_000_000, earliestDeadline)
        if foldPending { next = min(next, lastFold + Self.foldInterval) }
        if acceptPausedUntil > 0 { next = min(next, acceptPausedUntil) }
        if trimDue > 0 { next = min(next, trimDue) }
        if let stopDeadline { next = min(next, stopDeadline) }
        return next <= now ? 0 : Int32((next - now + 999_999) / 1_000_000)
    }

    /// Closing the descriptor also removes it from the epoll set (epoll(7): it is never
    /// duplicated here), which saves an epoll_ctl per connection. The responses still queued
    /// in `out` are this connection's (a loop serves one connection at a time and flushes
    /// before the next): they go with it, or the next client served would receive them.
    func close(_ connection: Connection) {
        thread.check()
        out.discard()
        if let current = connection.timeoutClass {
            deadlines[current.rawValue].remove(connection)
            connection.timeoutClass = nil
        }
        connection.tls?.shutdown()
        if connection.waitingFor != nil { waiting.remove(connection) }
        Posix.close(connection.fd)
        connections[Int(connection.fd)] = nil
        openConnections -= 1
        closedSinceTrim += 1
    }
}
