@preconcurrency import Glibc
import Dispatch
import Foundation
import Logging

/// Starts one event loop per worker, each on its own thread with its own listener, then
/// waits for signals on the main thread: SIGHUP reloads the sites, SIGTERM and SIGINT stop
/// gracefully (stop accepting, finish responses in flight, exit 0).
public final class Server {
    let configuration: ServerConfiguration
    let store: ContentStore
    let certificates: CertificateStore?
    let logger: Logger

    public init(configuration: ServerConfiguration, store: ContentStore, certificates: CertificateStore?, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.certificates = certificates
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT. Returns the process exit code.
    public func run() throws -> Int32 {
        // SIGPIPE: plain sockets use MSG_NOSIGNAL; this covers everything else.
        signal(SIGPIPE, SIG_IGN)
        Self.raiseDescriptorLimit()
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        // Blocked before any thread starts, so every loop inherits the mask and only this
        // thread's sigwait sees them.
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        guard configuration.http != nil || configuration.https != nil else {
            throw SystemError("no listener: give --http or --https ADDR:PORT", errno: EINVAL)
        }
        let count = configuration.loopCount
        let plain = try configuration.http.map { address throws(SystemError) in try Listener.openGroup(address, count: count) }
        let secure = try configuration.https.map { address throws(SystemError) in try Listener.openGroup(address, count: count) }
        let settings = LoopSettings(
            timeouts: configuration.timeouts, limits: configuration.limits, logFormat: configuration.logFormat,
            accessLog: configuration.accessLog)
        var controls: [LoopControl] = []
        let finished = DispatchSemaphore(value: 0)
        let certificates = self.certificates
        for index in 0..<count {
            let control = try LoopControl()
            controls.append(control)
            let store = self.store
            let listener = plain?.fds[index] ?? -1
            let secureListener = secure?.fds[index] ?? -1
            let thread = Thread {
                do {
                    let loop = try EventLoop(
                        listener: listener, secureListener: secureListener, certificates: certificates, control: control, store: store,
                        settings: settings)
                    loop.run()
                } catch {
                    for fd in [listener, secureListener] where fd >= 0 { Posix.close(fd) }
                }
                finished.signal()
            }
            thread.name = "aasa-loop"
            thread.start()
        }
        for (scheme, address, group) in [("http", configuration.http, plain), ("https", configuration.https, secure)] {
            guard let address, let group else { continue }
            let shown = address.family == .ipv4 ? "\(address.host):\(group.port)" : "[\(address.host)]:\(group.port)"
            logger.info("listening on \(scheme)://\(shown)", metadata: ["loops": "\(count)", "sites": "\(store.table.count)"])
        }

        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0 else { continue }
            if received == SIGHUP {
                reload(controls)
                continue
            }
            logger.info("stopping: finishing responses in flight", metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
            controls.forEach { $0.stop() }
            for _ in controls { finished.wait() }
            logger.info("stopped")
            return 0
        }
    }

    /// Loads and validates the sites again; only a fully valid set replaces what is served.
    func reload(_ controls: [LoopControl]) {
        let result = SiteLoader.load(URL(fileURLWithPath: configuration.sites), cacheControl: configuration.cacheControl)
        guard let table = result.table else {
            let report = result.checks.map { DiagnosticLines.render($0.diagnostics, path: $0.path) }.joined() + result.problems.joined(separator: "\n")
            logger.error("reload refused: the last good sites keep serving", metadata: ["diagnostics": "\(report)"])
            return
        }
        store.replace(with: table)
        controls.forEach { $0.wake() }
        logger.info("reloaded", metadata: ["sites": "\(table.count)"])
    }

    /// Each connection is a descriptor: take the hard limit (notes §8 pitfall 14).
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
