import AASALoop
import AASASiteServing
import AASASystem
import AASATransport
@preconcurrency import Glibc
import Logging
import Synchronization

extension ServerBuilder {
    /// The event loops as components: the sites' (one per worker, each on its own thread with
    /// its own listeners) and the admin listener's.
    struct Loops {
        let sites: ThreadGroup
        let admin: ThreadGroup?
        /// The loops' share of the descriptor limit, read again before each reload.
        let descriptors: DescriptorBudget
        /// Wakes every sites' loop so it takes a new snapshot at once.
        let wake: @Sendable () -> Void
        /// Wakes every sites' loop for one answer its waiting connections may need (nil: all).
        let wakeFor: @Sendable (WaitReason?) -> Void
    }

    /// Opens the listeners (or adopts the sockets systemd passed) and makes every loop, before
    /// any starts: a loop that cannot be made (no epoll, no eventfd) fails start-up instead of
    /// leaving its listener unserved.
    func loops(state: ServerState, inherited: InheritedListeners) throws(LaunchFailure) -> Loops {
        guard settings.http != nil || settings.https != nil else {
            throw .notStarting("no listener: give --http or --https ADDR:PORT", status: 1)
        }
        let count = state.statistics.count
        let plain: (fds: [Int32], port: Int)?
        let secure: (fds: [Int32], port: Int)?
        do {
            plain = try settings.http.map { address throws(ListenError) in
                if let socket = inherited.http { return try Listener.adopt(socket, count: count) }
                return try Listener.openGroup(address, count: count)
            }
        } catch {
            throw .notStarting("\(error)", status: 1)
        }
        do {
            secure = try settings.https.map { address throws(ListenError) in
                if let socket = inherited.https { return try Listener.adopt(socket, count: count) }
                return try Listener.openGroup(address, count: count)
            }
        } catch {
            plain?.fds.forEach(Posix.close)
            throw .notStarting("\(error)", status: 1)
        }
        var loopSettings = settings.loopSettings
        let descriptors = DescriptorBudget(loops: count)
        loopSettings.descriptors = descriptors
        let acme = state.acme.map { ACMEResponder(manager: $0, snapshots: state.snapshots.serving) }
        var controls: [LoopControl] = []
        var bodies: [@Sendable () -> String?] = []
        let lossLog = ListenerLossLog(logger: logger)
        let logger = logger
        // A loop's failure stops the server (the group's policy): its listener would otherwise
        // take connections nobody serves.
        let failures = FailureReport()
        let failed = LoopFailures()
        do {
            for index in 0..<count {
                let control = try LoopControl(
                    onFailure: { failures.report(failed.reasons ?? "an event loop failed") },
                    onListenerLost: lossLog.note)
                controls.append(control)
                var own = loopSettings
                own.maxConnections = LoopSettings.share(of: settings.maxConnections, loop: index, loops: count)
                own.maxHandshakes = LoopSettings.share(of: settings.maxHandshakes, loop: index, loops: count)
                // Used by its own thread only, once started.
                nonisolated(unsafe) let loop = try EventLoop(
                    listener: plain?.fds[index] ?? -1, secureListener: secure?.fds[index] ?? -1,
                    control: control, contents: state.snapshots.serving,
                    handler: SiteHandler(
                        acme: acme, appleFetches: state.appleFetches,
                        appleFetcherAgent: Array(settings.cdnWatch.appleFetcherAgent.utf8),
                        appleFetcherNetworks: settings.appleFetcherNetworks, trustedProxies: settings.trustedProxies),
                    handshakeHooks: acme, settings: own, statistics: state.statistics[index])
                loop.listenerScope = inherited.http?.scope
                loop.secureListenerScope = inherited.https?.scope
                bodies.append {
                    loop.serveSites()
                    return control.failure
                }
            }
        } catch {
            for fd in (plain?.fds ?? []) + (secure?.fds ?? []) { Posix.close(fd) }
            throw .notStarting("cannot start an event loop: \(error)", status: 1)
        }
        let admin = adminLoop(state: state, inherited: inherited, settings: loopSettings)
        // Every loop's epoll set and eventfd are open: what is open now is the server's own.
        descriptors.measureBase()
        let controlled = controls
        failed.controls.withLock { $0 = controlled }
        let sites = ThreadGroup(
            name: "aasa-loop", policy: .stopServer, failures: failures, bodies: bodies,
            stop: { for control in controlled { control.stop() } },
            announce: {
                for (scheme, address, port, socket) in [
                    ("http", settings.http, plain?.port, inherited.http),
                    ("https", settings.https, secure?.port, inherited.https),
                ] {
                    guard let address, let port else { continue }
                    var metadata: Logger.Metadata = [
                        "loops": .stringConvertible(count),
                        "sites": .stringConvertible(state.snapshots.current.counts.sites),
                        "aliases": .stringConvertible(state.snapshots.current.counts.aliases),
                    ]
                    if let socket { metadata["systemd_fd"] = .stringConvertible(socket.fd) }
                    // A wider socket (0.0.0.0:80 for 127.0.0.1:80) answers the listener's address only.
                    if let socket, socket.scope != nil { metadata["systemd_address"] = "\(socket.address)" }
                    logger.info("listening on \(scheme)://\(address.with(port: port))", metadata: metadata)
                }
            })
        return Loops(
            sites: sites, admin: admin, descriptors: descriptors,
            wake: { for control in controlled { control.wake() } },
            wakeFor: { reason in for control in controlled { control.wake(for: reason) } })
    }

    /// The admin listener's loop: the same parser, limits and deadlines, never the serving
    /// loops' time. Auxiliary: if its address is taken (another instance on the default port)
    /// or its loop cannot be made or fails, serving goes on without it and the error is logged.
    private func adminLoop(
        state: ServerState, inherited: InheritedListeners, settings loopSettings: LoopSettings
    ) -> ThreadGroup? {
        guard let address = settings.admin else { return nil }
        let listener: Int32
        do {
            if let socket = inherited.admin {
                listener = try Listener.adopt(socket, count: 1, deferAcceptSeconds: 0).fds[0]
            } else {
                listener = try Listener.open(address, deferAcceptSeconds: 0, reusePort: false)
            }
        } catch {
            logger.error("admin listener unavailable on \(address): \(error); serving without it")
            return nil
        }
        let logger = logger
        var adminSettings = loopSettings
        adminSettings.accessLog = false
        // A status page costs far more than a file: a few per turn.
        adminSettings.requestsPerTurn = LoopSettings.adminRequestsPerTurn
        // Its connections are capped by its own share of the descriptor reserve
        // (`DescriptorBudget.adminShare`), never by the serving loops' caps.
        adminSettings.descriptorRole = .admin
        adminSettings.maxConnections = .max
        // The admin loop's failure is logged and serving goes on (the group's policy).
        let failures = FailureReport()
        let failed = LoopFailures()
        do {
            let control = try LoopControl(
                onFailure: { failures.report(failed.reasons ?? "its loop failed") },
                onListenerLost: { reason in
                    logger.error("admin listener: \(reason); serving goes on without it until a restart")
                })
            failed.controls.withLock { $0 = [control] }
            nonisolated(unsafe) let loop = try EventLoop(
                listener: listener, control: control, contents: nil,
                handler: AdminHandler(routes: AdminRoutes(state: state)), settings: adminSettings)
            loop.listenerScope = inherited.admin?.scope
            return ThreadGroup(
                name: "aasa-admin", policy: .logAndContinue, failures: failures,
                bodies: [
                    {
                        loop.run()
                        return control.failure
                    }
                ], stop: control.stop,
                announce: {
                    logger.info(
                        "admin listening on http://\(address.with(port: Posix.localPort(listener)))",
                        metadata: inherited.admin.map { ["systemd_fd": .stringConvertible($0.fd)] } ?? [:])
                })
        } catch {
            logger.error("admin listener unavailable: cannot start its loop: \(error); serving without it")
            Posix.close(listener)
            return nil
        }
    }
}

/// The controls of a group's loops, filled once they are made: a loop's failure is reported
/// with the reasons its control recorded.
private final class LoopFailures: Sendable {
    let controls = Mutex<[LoopControl]>([])

    var reasons: String? {
        let reasons = controls.withLock { $0.compactMap(\.failure) }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }
}
