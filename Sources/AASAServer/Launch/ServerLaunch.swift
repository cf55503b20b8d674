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

    /// Why these settings may not start a server at all, before anything is read: the first
    /// refusal of a setting's row, in help's order (`ServerConfiguration.Setting`).
    static func refusal(_ settings: ServerConfiguration) -> String? {
        ServerConfiguration.Setting.all.lazy.compactMap { $0.refusal?(settings) }.first
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
