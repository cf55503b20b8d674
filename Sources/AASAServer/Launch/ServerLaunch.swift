import AASAACME
import AASASites
import AASATransport
import Foundation

/// Where `serve` begins: settings in, a running server out. `ServerBuilder`, the composition
/// root, makes every part; this runs the server it returns, or says why there is none. The
/// command line only parses flags into a `ServerConfiguration` and calls `run`.
public enum ServerLaunch {
    /// Starts and serves; returns the process's exit status (docs/usage.md, "Serve"): 0 after a
    /// clean stop, 1 when the sites or certificates are invalid, 2 when the settings or a
    /// file they name cannot be used.
    public static func run(_ settings: ServerConfiguration, configFile: String?) -> Int32 {
        OpenSSLLibrary.keepLoadedAtExit()
        let logger = EventLogger.make(format: settings.logFormat)
        let report = StartupReport(format: settings.logFormat, logger: logger)
        let server: Server
        do {
            server = try ServerBuilder(settings: settings, logger: logger, report: report).build(configFile: configFile)
        } catch {
            switch error {
            case .settings(let reason):
                StartupReport.writeError("error: \(reason)\n")
                return 2
            case .notStarting(let reason, let status):
                report.notStarting(reason)
                return status
            }
        }
        return server.run()
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
        // A folder store keeps private keys as 0600 files: an encryption key would promise a
        // protection it does not give (docs/usage.md, "Several replicas, one store").
        if settings.storeKeyFile != nil, case .folder = settings.storeLocation {
            return "--store-key-file applies to a PostgreSQL store (--store postgres://…); a folder store keeps "
                + "private keys in 0600 files"
        }
        return nil
    }

    /// The last word of a start-up whose first load failed.
    static func whyNotStarting(_ load: SnapshotLoader.Load, _ settings: ServerConfiguration) -> String {
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
