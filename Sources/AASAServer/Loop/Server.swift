@preconcurrency import Glibc
import Dispatch
import Foundation
import Logging

/// Starts one event loop per worker, each on its own thread with its own listeners, plus the
/// admin listener and the file watcher, then waits for signals on the main thread: SIGHUP
/// reloads, SIGTERM and SIGINT stop gracefully (stop accepting, finish responses in flight,
/// exit 0).
public final class Server {
    let state: ServerState
    let logger: Logger

    public init(state: ServerState, logger: Logger) {
        self.state = state
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT. Returns the process exit code.
    public func run() throws -> Int32 {
        let configuration = state.configuration
        // SIGPIPE: plain sockets use MSG_NOSIGNAL and OpenSSL writes through the fd; ignoring
        // the signal covers every path (notes §8 pitfall 2).
        signal(SIGPIPE, SIG_IGN)
        Self.raiseDescriptorLimit()
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        // Blocked before any thread starts, so every thread inherits the mask and only this
        // thread's sigwait sees them.
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        guard configuration.http != nil || configuration.https != nil else {
            throw SystemError("no listener: give --http or --https ADDR:PORT", errno: EINVAL)
        }
        let count = state.statistics.count
        let plain = try configuration.http.map { address throws(SystemError) in try Listener.openGroup(address, count: count) }
        let secure = try configuration.https.map { address throws(SystemError) in try Listener.openGroup(address, count: count) }
        // The admin listener is auxiliary: if its address is taken (another instance on the
        // default port), serving goes on without it and the error is logged.
        var admin: Int32?
        if let address = configuration.admin {
            do {
                admin = try Listener.open(address, deferAcceptSeconds: 0, reusePort: false)
            } catch {
                logger.error("admin listener unavailable on \(address): \(error); serving without it")
            }
        }
        let settings = LoopSettings(
            timeouts: configuration.timeouts, limits: configuration.limits, logFormat: configuration.logFormat,
            accessLog: configuration.accessLog)
        var controls: [LoopControl] = []
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<count {
            let control = try LoopControl()
            controls.append(control)
            let state = self.state
            let listener = plain?.fds[index] ?? -1
            let secureListener = secure?.fds[index] ?? -1
            spawn("aasa-loop") {
                do {
                    let loop = try EventLoop(
                        listener: listener, secureListener: secureListener, certificates: state.certificates, control: control,
                        store: state.content, settings: settings, statistics: state.statistics[index])
                    loop.run()
                } catch {
                    for fd in [listener, secureListener] where fd >= 0 { Posix.close(fd) }
                }
                finished.signal()
            }
        }
        let loopControls = controls
        let reloader = Reloader(state: state, logger: logger) { loopControls.forEach { $0.wake() } }
        for (scheme, address, port) in [("http", configuration.http, plain?.port), ("https", configuration.https, secure?.port)] {
            guard let address, let port else { continue }
            logger.info("listening on \(scheme)://\(address.with(port: port))", metadata: ["loops": "\(count)", "sites": "\(state.content.table.count)"])
        }
        if let admin, let address = configuration.admin {
            let adminServer = AdminServer(fd: admin, state: state)
            spawn("aasa-admin") { adminServer.run() }
            logger.info("admin listening on http://\(address.with(port: Posix.localPort(admin)))")
        }
        let watcher = FileWatcher(paths: [configuration.sites] + (configuration.https != nil ? [configuration.certs] : [])) {
            reloader.reload(reason: "files changed")
        }
        spawn("aasa-watch") { watcher.run() }

        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0 else { continue }
            if received == SIGHUP {
                reloader.reload(reason: "SIGHUP")
                continue
            }
            logger.info("stopping: finishing responses in flight", metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
            watcher.stop()
            controls.forEach { $0.stop() }
            for _ in controls { finished.wait() }
            logger.info("stopped")
            return 0
        }
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }

    /// Each connection is a descriptor: take the hard limit (notes §8 pitfall 14).
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
