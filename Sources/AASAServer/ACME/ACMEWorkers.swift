import AASAACME
import AASATransport
import Logging

/// ACME's workers as a component of the server: a certificate issued reloads the
/// certificates, a failed order wakes the loops (a paused handshake gives up). A start that
/// fails is logged and the server serves without new certificates. Its threads (the order
/// workers, the on-demand askers, the challenge lookup) are joined by `waitUntilStopped`.
final class ACMEWorkers: ServerComponent {
    let name = "aasa-acme"
    /// The certificates held are served on; what ACME cannot do is logged and on the status page.
    let policy = FailurePolicy.logAndContinue
    let failures = FailureReport()
    let manager: ACMEManager
    let reloader: Reloader
    /// Wakes the loops for one answer (a challenge looked up), or for everything (nil).
    let wakeLoops: @Sendable (WaitReason?) -> Void
    let logger: Logger

    init(
        manager: ACMEManager, reloader: Reloader, wakeLoops: @escaping @Sendable (WaitReason?) -> Void, logger: Logger
    ) {
        self.manager = manager
        self.reloader = reloader
        self.wakeLoops = wakeLoops
        self.logger = logger
    }

    func start() {
        let reloader = reloader
        // A check for another replica's challenge wakes the loops once its answer is in.
        let wakeLoops = wakeLoops
        manager.board.start(wake: wakeLoops)
        do {
            try manager.start(
                certificatesChanged: {
                    reloader.reload(reason: "certificate issued", changes: ChangeSet(sites: [], certificates: true))
                },
                orderFailed: { wakeLoops(nil) })
        } catch {
            failures.report("cannot start: \(error); no new certificates are ordered")
            return
        }
        logger.info(
            "acme: managing certificates",
            metadata: [
                "issuers": "\(manager.issuers.map(\.logged).joined(separator: ", "))",
                "challenges": "\(manager.challenges.map(\.rawValue).joined(separator: ","))",
                "on_demand": "\(manager.settings.onDemand ? "\(manager.settings.onDemandPerHour)/h" : "off")",
            ])
    }

    func stop() {
        manager.stop()
        manager.board.stop()
    }

    func waitUntilStopped() {
        manager.waitUntilStopped()
        manager.board.waitUntilStopped()
    }
}
