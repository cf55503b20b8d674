/// What the server does when one of its parts fails, or ends before it is asked to stop (a
/// thread of its own returned). Each `ServerComponent` declares its own, as a service of
/// swift-service-lifecycle's `ServiceGroup` declares its termination behaviours; `Server`
/// applies it (docs/ARCHITECTURE.md, "Threads").
enum FailurePolicy: Sendable, Equatable {
    /// The server stops gracefully and exits 1: it cannot serve without the part (a sites'
    /// loop whose listener would take connections nobody serves, the certificate loader
    /// paused handshakes wait for).
    case stopServer
    /// Logged as an error; the server serves on without the part (the admin listener, the
    /// file watcher, whose changes SIGHUP still reloads, ACME, the watches).
    case logAndContinue
}
