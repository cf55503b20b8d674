import AASASites
import AASATransport

/// The sites' handler: what a request to a site gets (docs/ARCHITECTURE.md, "The path of a
/// request"), with what it keeps between requests on its loop: the site table it serves,
/// whole responses of this second, the site of each Host value seen lately, ACME's HTTP-01
/// answers and where Apple's fetches are recorded. Owned by one loop and used on its thread
/// only.
package final class SiteHandler: RequestHandler {
    /// The loop's snapshot's sites.
    private(set) var table = SiteTable(SiteMap())
    /// Whole responses for the files served this second, sent from there without a copy.
    let responses = ResponseCache()
    /// The site of each Host value seen lately.
    let hosts = HostCache()
    /// The fixed paths of the table of kinds, as bytes.
    let paths = ServedPathTable()
    /// ACME's challenge answers (nil without ACME).
    let acme: ACMEResponder?
    /// Where requests from Apple's fetcher are recorded.
    let appleFetches: AppleFetches?
    /// The configured marker, copied once: searched in User-Agents without touching an
    /// array's reference count per request.
    let appleFetcherAgent: UnsafeMutableBufferPointer<UInt8>
    /// Where Apple's fetcher may ask from, and the proxies whose `X-Forwarded-For` is believed
    /// (the loop's settings).
    private(set) var appleFetcherNetworks: [IPNetwork] = []
    private(set) var trustedProxies: [IPNetwork] = []

    package init(acme: ACMEResponder?, appleFetches: AppleFetches?, appleFetcherAgent: [UInt8]) {
        self.acme = acme
        self.appleFetches = appleFetches
        self.appleFetcherAgent = .allocate(capacity: appleFetcherAgent.count)
        _ = self.appleFetcherAgent.initialize(from: appleFetcherAgent)
    }

    deinit {
        appleFetcherAgent.deallocate()
    }

    package func serve(_ table: SiteTable, settings: LoopSettings) {
        self.table = table
        appleFetcherNetworks = settings.appleFetcherNetworks
        trustedProxies = settings.trustedProxies
        responses.removeAll()
        hosts.removeAll()
    }
}

extension EventLoop where Handler == SiteHandler {
    /// `run` for the sites' loops. Called from this target, where the compiler sees the
    /// handler's type and specializes the whole loop for it; from the server's target
    /// `run` would be the generic code, a witness call per request (docs/ARCHITECTURE.md,
    /// "Threads").
    package func serveSites() {
        run()
    }
}
