import AASALoop
import AASAStore

/// What the admin listener (loopback by default) answers: `/healthz`, `/readyz`, `/metrics`,
/// the status page at `/` and its JSON form at `/sites.json`. It is served by an event loop
/// of its own, with the same parser, limits and deadlines as the public listeners
/// (`AdminHandler.swift`), so a slow scraper or a status page being rendered never delays
/// an association file.
struct AdminRoutes: Sendable {
    let state: ServerState
    let access: AdminAccess

    init(state: ServerState) {
        self.state = state
        access = AdminAccess(hosts: state.configuration.adminHosts, token: state.adminToken)
    }

    /// The response for a GET or HEAD of `path` (without the query) with `query`.
    func response(path: String, query: String) -> AdminResponse {
        switch path {
        case "/healthz":
            // Still serving when the store is out of reach: only new orders wait (the state is shown).
            return AdminResponse(status: .ok, text: "ok\n" + (state.acme.map { Self.storeLine($0.store) } ?? ""))
        case "/readyz":
            // A listener that stopped accepting (a passed socket shut down by another holder)
            // takes no new client: the process lives on, but must not be sent traffic.
            if state.statistics.contains(where: { $0.listenersLost > 0 }) {
                return AdminResponse(status: .serviceUnavailable, text: "a listener stopped accepting\n")
            }
            let snapshot = state.snapshots.current
            return snapshot.table.count > 0 || snapshot.counts.files == 0
                ? AdminResponse(status: .ok, text: "ready\n")
                : AdminResponse(status: .serviceUnavailable, text: "no sites loaded\n")
        case "/metrics":
            return AdminResponse(
                status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8",
                body: Array(MetricsReport.render(state).utf8))
        case "/":
            let page = StatusPage.render(
                state, testing: QueryString.value(of: "url", in: query), query: QueryString.value(of: "q", in: query),
                page: QueryString.value(of: "page", in: query), only: onlySites(query))
            return AdminResponse(status: .ok, contentType: "text/html; charset=utf-8", body: Array(page.utf8))
        case "/sites.json":
            let snapshot = state.snapshots.current
            let listing = SiteListing(
                snapshot, query: QueryString.value(of: "q", in: query), page: QueryString.value(of: "page", in: query),
                only: onlySites(query))
            return AdminResponse(
                status: .ok, contentType: "application/json", body: SitesDocument(state, snapshot, listing).encoded)
        default:
            return AdminResponse(status: .notFound, text: "not found\n")
        }
    }

    /// `cdn=out-of-sync` (`google=out-of-sync`) keeps a listing to the sites whose copy in
    /// Apple's CDN (Google's view) is not in sync; both: either.
    private func onlySites(_ query: String) -> Set<String>? {
        var only: Set<String>?
        for (name, watch) in [("cdn", state.cdnWatch), ("google", state.googleWatch)]
        where QueryString.value(of: name, in: query) == "out-of-sync" {
            only = (only ?? []).union(watch?.sitesNotInSync() ?? [])
        }
        return only
    }

    /// The store's state in one line, for `/healthz`.
    static func storeLine(_ store: any SharedStore) -> String {
        store.health.isUp
            ? "store: up (\(store.summary))\n"
            : "store: out of reach (\(store.summary)): serving the certificates held, no orders until it is back\n"
    }
}
