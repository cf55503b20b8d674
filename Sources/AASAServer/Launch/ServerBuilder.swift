import AASAACME
import AASALoop
import AASASiteServing
import AASASites
import AASAStore
import AASASystem
import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc
import Logging

/// The composition root: the one place the server's parts are made from resolved settings
/// (ACME and its store, the watcher, the first load, the shared state, the listeners and their loops, the
/// reloader) and listed, in start order, as the components `Server` starts and stops. A new
/// long-lived part is one more line in `build`'s list.
struct ServerBuilder {
    let settings: ServerConfiguration
    let logger: Logger
    let report: StartupReport

    /// The server, its parts made and listed in start order. `ownsProcess` (`serve`): the stop
    /// and reload signals are blocked for `Server.run`'s sigwait and stdout is made
    /// non-blocking; without it (a server run in a test's process by `start` and `stop`), the
    /// process's signals and streams are left as they are.
    func build(configFile: String?, ownsProcess: Bool = true) throws(LaunchFailure) -> Server {
        if let refusal = ServerLaunch.refusal(settings) { throw .settings(refusal) }
        // Before anything is read: a socket unit that disagrees with the settings is a
        // settings error, and a large tree of sites would only delay saying so.
        let inherited: InheritedListeners
        do { inherited = try InheritedListeners.take(for: settings) } catch { throw .settings(error.description) }
        let adminToken = try adminToken()
        // Which file the settings came from, absolute: a server started in another working
        // directory than expected silently misses its Config/aasa-server.json otherwise.
        logger.info("starting", metadata: ["config_file": "\(configFile ?? "none")"])
        if let warning = adminToken?.warning { logger.warning("\(warning)") }
        for problem in inherited.unmatched {
            logger.warning("\(problem.description); it is closed, and its listener binds as usual")
            if case .unmatched(let socket, _) = problem { Posix.close(socket.fd) }
        }
        // ACME first: it makes `acme/` under the certificates folder (which the watcher must find
        // there) and copies a store's certificates into it before the first read.
        let store = try sharedStore()
        do throws(LaunchFailure) {
            return try build(
                acme: try acmeManager(store: store), store: store, inherited: inherited, adminToken: adminToken,
                ownsProcess: ownsProcess)
        } catch {
            // The store's listener (PostgreSQL) is a thread: a start that fails leaves none.
            store?.close()
            throw error
        }
    }

    /// The rest of `build`, once the store is open.
    private func build(
        acme: ACMEManager?, store: (any SharedStore)?, inherited: InheritedListeners, adminToken: AdminToken?,
        ownsProcess: Bool
    ) throws(LaunchFailure) -> Server {
        // Each folder watched, then read: a change made while the sites load is seen. The first
        // load sets the watches up as it goes, on its own threads (`FileWatcher.Setup.roots`).
        let unwatched = UnwatchedFolders()
        let watcher = FileWatcher(
            sites: settings.sites, certificates: settings.https != nil ? settings.certs : nil, logger: logger,
            unwatched: unwatched, setup: .roots)
        let (load, snapshot) = try firstLoad(watcher: watcher)
        watcher.firstLoadWatched()
        StartupReport.flush()
        let state = ServerState(
            configuration: settings, snapshot: snapshot, loops: settings.loopCount, acme: acme,
            cdnWatch: settings.cdnWatch.enabled
                ? CacheWatcher(source: AppleCDNSource(settings: settings.cdnWatch), logger: logger) : nil,
            googleWatch: try googleWatch(), appleFetches: AppleFetches(logger: logger), adminToken: adminToken,
            unwatched: unwatched)
        if load.outcome == .partial { Reloader.report(load, reason: "start-up", state: state, logger: logger) }
        let signals = try processSetup(ownsProcess: ownsProcess)
        let loops = try self.loops(state: state, inherited: inherited)
        let reloader = Reloader(state: state, logger: logger, descriptors: loops.descriptors, wakeLoops: loops.wake)
        // Without inotify (logged) there is nothing to run: SIGHUP reloads.
        let fileWatch =
            watcher.isWatching
            ? ThreadGroup(
                name: "aasa-watch", policy: .logAndContinue,
                bodies: [{ watcher.run { changes in reloader.reload(reason: "files changed", changes: changes) } }],
                stop: watcher.stop) : nil
        // Start order; `Server` stops them in reverse, each asked, then each joined.
        let components: [(any ServerComponent)?] =
            [
                store.map { StoreComponent(store: $0) },
                certificateLoader(snapshot.certificates?.cache, wake: loops.wakeFor),
                loops.sites,
                loops.admin,
                acme.map { ACMEWorkers(manager: $0, reloader: reloader, wakeLoops: loops.wakeFor, logger: logger) },
            ] + watches(state, store: acme?.store) + [reloader, fileWatch]
        return Server(
            components: components.compactMap { $0 }, reload: { reloader.reload(reason: "SIGHUP") },
            signals: signals, logger: logger, report: report)
    }

    /// The CDN and Google watches: with a store replicas share (`--acme on`), run by one
    /// replica at a time (`WatchLeader`); without one, by this server.
    private func watches(_ state: ServerState, store: (any SharedStore)?) -> [(any ServerComponent)?] {
        let watchers = [state.cdnWatch, state.googleWatch].compactMap { $0 }
        guard let store, !watchers.isEmpty else { return watchers }
        return [WatchLeader(store: store, watchers: watchers, logger: logger)]
    }

    /// The thread that loads a certificate when a handshake first asks for its name, then wakes
    /// the loops, whose paused handshakes go on (`CertificateCache`); it starts before the loops
    /// and stops after them. A certificate that cannot be used is logged with its code; one
    /// failed for a passing reason once per episode, and again when it loads.
    private func certificateLoader(
        _ cache: CertificateCache?, wake: @escaping @Sendable (WaitReason?) -> Void
    ) -> ThreadGroup? {
        guard let cache else { return nil }
        cache.prepareLoader()
        let logger = logger
        // Paused handshakes wait for it: a server without it must stop (it ends only when stopped).
        return ThreadGroup(
            name: "aasa-certs", policy: .stopServer,
            bodies: [
                {
                    cache.runLoader(wake: wake) { problem in
                        let problem = LoadProblem(problem)
                        logger.error(
                            "\(problem.rendered)",
                            metadata: ["code": .string(problem.code), "file": .string(problem.path)])
                    } recovered: { folder, failures in
                        let why = "the system's state, not its files"
                        logger.notice(
                            "certificate \(folder) loaded after \(failures) failed tries (\(why))",
                            metadata: ["file": .string(folder)])
                    }
                    return nil
                }
            ], stop: cache.stop)
    }

    /// The watch over Google's view (nil unless `--google-watch on`), its API key read once.
    private func googleWatch() throws(LaunchFailure) -> CacheWatcher? {
        guard settings.googleWatch.enabled else { return nil }
        do {
            return CacheWatcher(source: try GoogleSource(settings: settings.googleWatch), logger: logger)
        } catch {
            throw .settings(error.description)
        }
    }

    /// The admin token, read once. Reachable from other hosts, the token is all that stands
    /// between them and the status page, so it must be long enough not to be guessed.
    private func adminToken() throws(LaunchFailure) -> AdminToken? {
        let minimum = settings.adminPublic ? AdminToken.minimumPublicBytes : 1
        do {
            return try settings.adminTokenFile.map { path throws(AdminToken.Problem) in
                try AdminToken(file: path, minimumBytes: minimum)
            }
        } catch {
            throw .settings(error.description)
        }
    }

    /// One loader for start-up and reload. Like `nginx -t`: every problem of every site and
    /// certificate, then refuse to start on an error. With `--invalid-sites skip` the valid
    /// sites serve and the invalid ones are refused, as a reload would refuse them.
    private func firstLoad(watcher: FileWatcher) throws(LaunchFailure) -> (SnapshotLoader.Load, ServerSnapshot) {
        let logger = logger
        // A large tree takes seconds: a progress line every few seconds says so.
        let load = SnapshotLoader.load(settings, previous: nil, watcher: watcher.isWatching ? watcher : nil) {
            done, total in
            logger.info("loading sites: \(done) of \(total) folders read")
        }
        report.problems(load.problems)
        let skipping = settings.invalidSites == .skip && load.outcome == .partial
        guard load.outcome == .ok || skipping, let snapshot = load.snapshot else {
            throw .notStarting(ServerLaunch.whyNotStarting(load, settings), status: load.sitesReadable ? 1 : 2)
        }
        return (load, snapshot)
    }

    /// ACME's manager with its accounts ready (nil unless `--acme on`).
    private func acmeManager(store: (any SharedStore)?) throws(LaunchFailure) -> ACMEManager? {
        guard settings.acme.enabled else { return nil }
        var acme = settings.acme
        acme.userAgent = "aasa-server/\(Version.current) acme"
        // On-demand names are counted by registered domain with the system's Public Suffix
        // List; without it the budget cannot be kept, so the server does not start.
        let suffixes: PublicSuffixList
        switch acme.onDemand ? PublicSuffixListFile.system : .success(PublicSuffixList(text: "")) {
        case .success(let list): suffixes = list
        case .failure(let unavailable):
            throw .notStarting("acme: the on-demand budget cannot be kept: \(unavailable.reason)", status: 2)
        }
        let manager = ACMEManager(
            settings: acme, certificates: settings.certs, challenges: settings.acmeChallenges,
            publicSuffixes: suffixes, store: store, logger: logger)
        do { try manager.prepare() } catch { throw .notStarting("acme: \(error)", status: 2) }
        if let warning = acme.onDemandWarning { logger.warning("\(warning)") }
        return manager
    }

    /// The store replicas share (`--store`): nil for the default, the certificates folder's
    /// `acme/`, which ACME's own folder is; another folder or PostgreSQL is opened here, and a
    /// store that cannot be opened stops the start (docs/acme.md, "Several replicas, one store").
    private func sharedStore() throws(LaunchFailure) -> (any SharedStore)? {
        guard settings.acme.enabled else { return nil }
        let location = settings.storeLocation
        let own = URL(fileURLWithPath: ACMEStorage(certificates: settings.certs).folder).standardizedFileURL.path
        if case .folder(let path) = location, URL(fileURLWithPath: path).standardizedFileURL.path == own {
            return nil
        }
        do {
            let store = try openStore(location, keyFile: settings.storeKeyFile)
            logger.info("store: \(store.summary)")
            return store
        } catch {
            throw .notStarting("store: \(error)", status: 2)
        }
    }

    /// What the process needs before any component's thread starts: SIGPIPE ignored (plain
    /// sockets use MSG_NOSIGNAL and OpenSSL writes through the fd; ignoring the signal covers
    /// every path, signal(7)), the stop and reload signals blocked so those threads inherit the
    /// mask and only the main thread's sigwait sees them, the descriptor limit raised, and
    /// stdout made safe for the access log. In a process the server does not own, SIGPIPE is
    /// ignored and the limit raised, and nothing else.
    private func processSetup(ownsProcess: Bool) throws(LaunchFailure) -> sigset_t? {
        var signals: sigset_t?
        do {
            try Posix.ignore(signal: SIGPIPE)
            if ownsProcess { signals = try Posix.block(signals: [SIGTERM, SIGINT, SIGHUP]) }
        } catch {
            throw .notStarting("cannot set up signals: \(error)", status: 1)
        }
        // Each connection is a descriptor: take the hard limit; without it the soft one serves.
        do { try Posix.raiseDescriptorLimit() } catch { logger.warning("\(error); serving with the soft limit") }
        if ownsProcess { Self.makeStdoutNonBlocking() }
        return signals
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
