import AASAStore

/// The store replicas share (`--store`), as a part of the server: opened by `ServerBuilder`
/// (a PostgreSQL store's listener thread runs from then on), first in start order, so it is
/// the last one joined. `stop` asks nothing of it, since ACME and the watches still use it
/// while they finish; `waitUntilStopped`, called once every later part has been joined, closes
/// it: its listener thread is joined and its connections, a held lock's included, end.
final class StoreComponent: ServerComponent {
    let name = "aasa-store"
    /// The store reports its reachability on the status page and /readyz; it never ends on
    /// its own (a listener that loses its connection makes it again).
    let policy = FailurePolicy.logAndContinue
    let failures = FailureReport()
    let store: any SharedStore

    init(store: any SharedStore) {
        self.store = store
    }

    func start() {}

    func stop() {}

    func waitUntilStopped() {
        store.close()
    }
}
