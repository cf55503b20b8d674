import AASAACME
import AASALoop
import AASASystem
import AASATransport
import Dispatch
import Foundation
@preconcurrency import Glibc
import Logging

/// Starts one event loop per worker, each on its own thread with its own listeners, plus the
/// admin listener and the file watcher, then waits for signals on the main thread: SIGHUP
/// reloads, SIGTERM and SIGINT stop gracefully (stop accepting, finish responses in flight,
/// exit 0).
public final class Server {
    let state: ServerState
    let logger: Logger
    /// Set up before the sites were first read (`FileWatcher`), so no change is lost.
    let watcher: FileWatcher
    /// The listening sockets systemd passed, which listeners serve from instead of binding.
    let inherited: InheritedListeners

    public init(
        state: ServerState, logger: Logger, watcher: FileWatcher, inherited: InheritedListeners = InheritedListeners()
    ) {
        self.state = state
        self.logger = logger
        self.watcher = watcher
        self.inherited = inherited
    }

    /// Why the server could not start: a sentence for the operator.
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs until SIGTERM or SIGINT (exit code 0), or until an event loop fails (1).
    public func run() throws -> Int32 {
        let configuration = state.configuration
        // SIGPIPE: plain sockets use MSG_NOSIGNAL and OpenSSL writes through the fd; ignoring
        // the signal covers every path (signal(7)).
        // Blocked before any thread starts, so every thread inherits the mask and only this
        // thread's sigwait sees them.
        let signals: sigset_t
        do {
            try Posix.ignore(signal: SIGPIPE)
            signals = try Posix.block(signals: [SIGTERM, SIGINT, SIGHUP])
        } catch {
            throw StartFailure(description: "cannot set up signals: \(error)")
        }
        // Each connection is a descriptor: take the hard limit; without it the soft one serves.
        do { try Posix.raiseDescriptorLimit() } catch { logger.warning("\(error); serving with the soft limit") }
        Self.makeStdoutNonBlocking()

        guard configuration.http != nil || configuration.https != nil else {
            throw StartFailure(description: "no listener: give --http or --https ADDR:PORT")
        }
        let count = state.statistics.count
        let inherited = self.inherited
        let plain = try configuration.http.map { address throws(ListenError) in
            if let socket = inherited.http { return try Listener.adopt(socket, count: count) }
            return try Listener.openGroup(address, count: count)
        }
        let secure: (fds: [Int32], port: Int)?
        do {
            secure = try configuration.https.map { address throws(ListenError) in
                if let socket = inherited.https { return try Listener.adopt(socket, count: count) }
                return try Listener.openGroup(address, count: count)
            }
        } catch {
            plain?.fds.forEach(Posix.close)
            throw error
        }
        // The admin listener is auxiliary: if its address is taken (another instance on the
        // default port), serving goes on without it and the error is logged.
        var admin: Int32?
        if let address = configuration.admin {
            do {
                if let socket = inherited.admin {
                    admin = try Listener.adopt(socket, count: 1, deferAcceptSeconds: 0).fds[0]
                } else {
                    admin = try Listener.open(address, deferAcceptSeconds: 0, reusePort: false)
                }
            } catch {
                logger.error("admin listener unavailable on \(address): \(error); serving without it")
            }
        }
        var settings = configuration.loopSettings
        let descriptors = DescriptorBudget(loops: count)
        settings.descriptors = descriptors
        // Every loop is set up here, before any starts: a loop that cannot be made (no epoll,
        // no eventfd) fails start-up instead of leaving its listener unserved.
        let acme = state.acme.map { ACMEResponder(manager: $0, snapshots: state.snapshots) }
        var controls: [LoopControl] = []
        var loops: [EventLoop<SiteHandler>] = []
        do {
            for index in 0..<count {
                // The main thread waits in sigwait: SIGTERM wakes it to stop the server.
                let control = try LoopControl(onFailure: { kill(getpid(), SIGTERM) })
                controls.append(control)
                var loopSettings = settings
                loopSettings.maxConnections = LoopSettings.share(
                    of: configuration.maxConnections, loop: index, loops: count)
                loopSettings.maxHandshakes = LoopSettings.share(
                    of: configuration.maxHandshakes, loop: index, loops: count)
                loops.append(
                    try EventLoop(
                        listener: plain?.fds[index] ?? -1, secureListener: secure?.fds[index] ?? -1,
                        control: control, snapshots: state.snapshots,
                        handler: SiteHandler(
                            acme: acme, appleFetches: state.appleFetches, appleFetcherAgent: settings.appleFetcherAgent),
                        handshakeHooks: acme, settings: loopSettings, statistics: state.statistics[index]))
            }
        } catch {
            for fd in (plain?.fds ?? []) + (secure?.fds ?? []) { Posix.close(fd) }
            throw StartFailure(description: "cannot start an event loop: \(error)")
        }
        // The admin listener gets a loop of its own: the same parser, limits and deadlines,
        // never the serving loops' time. Auxiliary like its listener: if its loop cannot be
        // made or fails, serving goes on and the error is logged.
        var adminLoop: EventLoop<AdminHandler>?
        var adminControl: LoopControl?
        if let admin {
            do {
                let logger = logger
                let control = try LoopControl(onFailure: {
                    logger.error("the admin listener's loop failed; serving goes on without it")
                })
                var adminSettings = settings
                adminSettings.accessLog = false
                // A status page costs far more than a file: a few per turn.
                adminSettings.requestsPerTurn = LoopSettings.adminRequestsPerTurn
                // Its connections are capped by its own share of the descriptor reserve
                // (`DescriptorBudget.adminShare`), never by the serving loops' caps.
                adminSettings.descriptorRole = .admin
                adminSettings.maxConnections = .max
                adminLoop = try EventLoop(
                    listener: admin, control: control, snapshots: state.snapshots,
                    handler: AdminHandler(routes: AdminRoutes(state: state)), settings: adminSettings)
                adminControl = control
            } catch {
                logger.error("admin listener unavailable: cannot start its loop: \(error); serving without it")
                Posix.close(admin)
            }
        }
        // Every loop's epoll set and eventfd are open: what is open now is the server's own.
        descriptors.measureBase()
        let finished = DispatchSemaphore(value: 0)
        for loop in loops {
            // The loop is used by its own thread only from here on.
            nonisolated(unsafe) let loop = loop
            spawn("aasa-loop") {
                loop.serveSites()
                finished.signal()
            }
        }
        loops.removeAll()
        let adminFinished = DispatchSemaphore(value: 0)
        if let loop = adminLoop {
            nonisolated(unsafe) let loop = loop
            spawn("aasa-admin") {
                loop.run()
                adminFinished.signal()
            }
        }
        adminLoop = nil
        let loopControls = controls
        let reloader = Reloader(state: state, logger: logger, descriptors: descriptors) {
            for control in loopControls { control.wake() }
        }
        for (scheme, address, port, socket) in [
            ("http", configuration.http, plain?.port, inherited.http),
            ("https", configuration.https, secure?.port, inherited.https),
        ] {
            guard let address, let port else { continue }
            var metadata: Logger.Metadata = [
                "loops": .stringConvertible(count),
                "sites": .stringConvertible(state.snapshots.current.counts.sites),
                "aliases": .stringConvertible(state.snapshots.current.counts.aliases),
            ]
            if let socket { metadata["systemd_fd"] = .stringConvertible(socket.fd) }
            logger.info("listening on \(scheme)://\(address.with(port: port))", metadata: metadata)
        }
        if let admin, adminControl != nil, let address = configuration.admin {
            logger.info(
                "admin listening on http://\(address.with(port: Posix.localPort(admin)))",
                metadata: inherited.admin.map { ["systemd_fd": .stringConvertible($0.fd)] } ?? [:])
        }
        if let manager = state.acme {
            do {
                try manager.start(
                    certificatesChanged: {
                        reloader.reload(reason: "certificate issued", changes: ChangeSet(sites: [], certificates: true))
                    },
                    orderFailed: { for control in loopControls { control.wake() } })
            } catch {
                logger.error("acme: cannot start: \(error); serving without new certificates")
            }
            logger.info(
                "acme: managing certificates",
                metadata: [
                    "issuers": "\(manager.issuers.map(\.logged).joined(separator: ", "))",
                    "challenges": "\(manager.challenges.map(\.rawValue).joined(separator: ","))",
                    "on_demand": "\(manager.settings.onDemand ? "\(manager.settings.onDemandPerHour)/h" : "off")",
                ])
        }
        if let cdnWatch = state.cdnWatch {
            cdnWatch.start()
            logger.info(
                "cdn: watching Apple's CDN",
                metadata: [
                    "url": "\(cdnWatch.settings.url)", "interval": .stringConvertible(cdnWatch.settings.interval),
                    "rate_per_minute": .stringConvertible(cdnWatch.settings.ratePerMinute),
                ])
        }
        state.observeSnapshot()
        let watcher = self.watcher
        spawn("aasa-watch") {
            watcher.run { changes in reloader.reload(reason: "files changed", changes: changes) }
        }

        while true {
            let received: Int32
            do {
                received = try Posix.waitForSignal(in: signals)
            } catch {
                // sigwait fails only for an invalid set (EINVAL): stop rather than spin.
                logger.critical("\(error)")
                received = SIGTERM
            }
            if received == SIGHUP {
                reloader.reload(reason: "SIGHUP")
                continue
            }
            // A failed loop sends SIGTERM to wake this thread (LoopControl.onFailure).
            let failures = controls.compactMap(\.failure)
            if failures.isEmpty {
                logger.info(
                    "stopping: finishing responses in flight",
                    metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
            } else {
                logger.critical("stopping: an event loop failed: \(failures.joined(separator: "; "))")
            }
            watcher.stop()
            state.acme?.stop()
            state.cdnWatch?.stop()
            for control in controls { control.stop() }
            adminControl?.stop()
            for _ in controls { finished.wait() }
            if adminControl != nil { adminFinished.wait() }
            logger.info("stopped")
            return failures.isEmpty ? 0 : 1
        }
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }

    /// The access log must never stall a loop behind a slow reader (a full pipe to a log
    /// collector): on a pipe or socket, stdout becomes non-blocking (fcntl(2)) and each loop
    /// keeps what it could not write, up to `AccessLog.bufferLimit`. A terminal or a file is
    /// left as it is (a terminal's flags are shared with the shell; a file never waits long).
    static func makeStdoutNonBlocking() {
        guard let type = Posix.standardStreamType(1), type == S_IFIFO || type == S_IFSOCK else { return }
        try? Posix.setNonBlocking(1)
    }
}
