import AASAACME
import AASASites
import AASASystem
import AASATransport
import AssociationKit
import Foundation

/// The composition root: builds a server from resolved settings (the watcher, the first
/// load, ACME, the shared state, the loops) and runs it until it stops. The command line
/// only parses flags into a `ServerConfiguration` and calls `run`.
public enum ServerLaunch {
    /// Starts and serves; returns the process's exit status (docs/usage.md, "Serve"): 0 after a
    /// clean stop, 1 when the sites or certificates are invalid, 2 when the settings or a
    /// file they name cannot be used.
    public static func run(_ settings: ServerConfiguration, configFile: String?) -> Int32 {
        OpenSSLLibrary.keepLoadedAtExit()
        if let refusal = refusal(settings) {
            StartupReport.writeError("error: \(refusal)\n")
            return 2
        }
        // Before anything is read: a socket unit that disagrees with the settings is a
        // settings error, and a large tree of sites would only delay saying so.
        let inherited: InheritedListeners
        do {
            inherited = try InheritedListeners.take(for: settings)
        } catch {
            StartupReport.writeError("error: \(error.description)\n")
            return 2
        }
        let adminToken: AdminToken?
        do {
            // Reachable from other hosts, the token is all that stands between them and the status
            // page, so it must be long enough not to be guessed.
            let minimum = settings.adminPublic ? AdminToken.minimumPublicBytes : 1
            adminToken = try settings.adminTokenFile.map { path throws(AdminToken.Problem) in
                try AdminToken(file: path, minimumBytes: minimum)
            }
        } catch {
            StartupReport.writeError("error: \(error.description)\n")
            return 2
        }
        let logger = EventLogger.make(format: settings.logFormat)
        let report = StartupReport(format: settings.logFormat, logger: logger)
        // Which file the settings came from, absolute: a server started in another working
        // directory than expected silently misses its Config/aasa-server.json otherwise.
        logger.info("starting", metadata: ["config_file": "\(configFile ?? "none")"])
        if let warning = adminToken?.warning { logger.warning("\(warning)") }
        for problem in inherited.unmatched {
            logger.warning("\(problem.description); it is closed, and its listener binds as usual")
            if case .unmatched(let socket, _) = problem { Posix.close(socket.fd) }
        }
        // One loader for start-up and reload. Like `nginx -t`: every problem of every site
        // and certificate, then refuse to start on an error.
        // Watches first, then the first read: a change made while the sites load is seen.
        let watcher = FileWatcher(
            sites: settings.sites, certificates: settings.https != nil ? settings.certs : nil, logger: logger)
        // A large tree takes seconds: a progress line every few seconds says so.
        let load = SnapshotLoader.load(settings, previous: nil) { done, total in
            logger.info("loading sites: \(done) of \(total) folders read")
        }
        report.problems(load.problems)
        // With `--invalid-sites skip` the valid sites serve and the invalid ones are refused,
        // as a reload would refuse them.
        let skipping = settings.invalidSites == .skip && load.outcome == .partial
        guard load.outcome == .ok || skipping, let snapshot = load.snapshot else {
            report.notStarting(whyNotStarting(load, settings))
            return load.sitesReadable ? 1 : 2
        }
        var acmeManager: ACMEManager?
        if settings.acme.enabled {
            var acme = settings.acme
            acme.userAgent = "aasa-server/\(Version.current) acme"
            // On-demand names are counted by registered domain with the system's Public Suffix
            // List; without it the budget cannot be kept, so the server does not start.
            let suffixes: PublicSuffixList
            switch acme.onDemand ? PublicSuffixListFile.system : .success(PublicSuffixList(text: "")) {
            case .success(let list): suffixes = list
            case .failure(let unavailable):
                report.notStarting("acme: the on-demand budget cannot be kept: \(unavailable.reason)")
                return 2
            }
            let manager = ACMEManager(
                settings: acme, certificates: settings.certs, challenges: settings.acmeChallenges,
                publicSuffixes: suffixes, logger: logger)
            do {
                try manager.prepare()
            } catch {
                report.notStarting("acme: \(error)")
                return 2
            }
            acmeManager = manager
            if let warning = acme.onDemandWarning { logger.warning("\(warning)") }
        }
        StartupReport.flush()
        let state = ServerState(
            configuration: settings, snapshot: snapshot, loops: settings.loopCount, acme: acmeManager,
            adminToken: adminToken, logger: logger)
        if skipping { Reloader.report(load, reason: "start-up", state: state, logger: logger) }
        let server = Server(state: state, logger: logger, watcher: watcher, inherited: inherited)
        do {
            return try server.run()
        } catch {
            report.notStarting("\(error)")
            return 1
        }
    }

    /// Why these settings may not start a server at all, before anything is read.
    static func refusal(_ settings: ServerConfiguration) -> String? {
        if let admin = settings.admin, !admin.isLoopback, !settings.adminPublic {
            return "the admin listener \(admin) is not a loopback address; it shows every site and metric, so "
                + "pass --admin-public (with --admin-token-file) to really expose it"
        }
        // A public admin listener answers only requests with the token.
        if settings.adminPublic && settings.adminTokenFile == nil {
            return "--admin-public needs --admin-token-file FILE (adminTokenFile, AASA_ADMIN_TOKEN_FILE): "
                + "a public admin listener answers only requests with Authorization: Bearer TOKEN"
        }
        if settings.acme.enabled && settings.https == nil {
            return "--acme on needs an HTTPS listener (--https ADDR:PORT)"
        }
        if settings.acme.enabled && settings.acmeChallenges.isEmpty {
            return "no ACME challenge type is possible: http-01 needs --http, tls-alpn-01 --https"
        }
        if settings.acme.enabled, let problem = settings.acme.issuersProblem { return problem }
        return nil
    }

    /// The last word of a start-up whose first load failed.
    private static func whyNotStarting(_ load: SnapshotLoader.Load, _ settings: ServerConfiguration) -> String {
        if !load.sitesReadable { return "the sites folder \(settings.sites) cannot be read" }
        if !load.sitesValid {
            return settings.invalidSites == .skip
                ? "fix the errors above (no site in \(settings.sites) is valid)"
                : "fix the errors above (the sites in \(settings.sites) must all be valid, or give --invalid-sites skip)"
        }
        // Advice to create certificates only when there are none: otherwise the problems above
        // (unreadable, expired, mismatched) say what to fix.
        let noCertificates = load.problems.contains { $0.code == LoadProblem.Code.noCertificates.rawValue }
        return noCertificates
            ? "HTTPS needs certificates in \(settings.certs) (for local tests, make certs creates some)"
            : "HTTPS needs valid certificates in \(settings.certs): fix the certificate errors above"
    }
}
