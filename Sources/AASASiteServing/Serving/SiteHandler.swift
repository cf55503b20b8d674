import AASALoop
import AASASites
import AASATransport
import AssociationKit

/// The sites' handler: what a request to a site gets (docs/ARCHITECTURE.md, "The path of a
/// request"), with what it keeps between requests on its loop: the site table it serves,
/// whole responses of this second, the site of each Host value seen lately, ACME's HTTP-01
/// answers and where Apple's fetches are recorded. Owned by one loop and used on its thread
/// only. A struct the loop holds inline and calls `mutating`: its fields are reached through
/// `inout self`, so this target's exclusivity checks cost nothing per request (its caches
/// are classes whose stored properties are constants).
package struct SiteHandler: RequestHandler {
    package typealias Content = ServingSnapshot

    /// The labels of `aasa_requests_total{path}` (`ServedPath`).
    package static var countedPaths: [String] { ServedPath.labels }
    /// fallback.json's decisions, by `FallbackDecision.Kind.slot`.
    package static var countedKinds: Int { FallbackDecision.Kind.slots }

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
    let appleFetcherAgent: FetcherMarker
    /// Where Apple's fetcher may ask from, and the proxies whose `X-Forwarded-For` is believed.
    let appleFetcherNetworks: [IPNetwork]
    let trustedProxies: [IPNetwork]

    /// `appleFetcherAgent`, `appleFetcherNetworks` and `trustedProxies` are the settings
    /// `--apple-fetcher-agent`, `--apple-fetcher-network` and `--trusted-proxy`.
    package init(
        acme: ACMEResponder?, appleFetches: AppleFetches?, appleFetcherAgent: [UInt8],
        appleFetcherNetworks: [IPNetwork] = [], trustedProxies: [IPNetwork] = []
    ) {
        self.acme = acme
        self.appleFetches = appleFetches
        self.appleFetcherAgent = FetcherMarker(appleFetcherAgent)
        self.appleFetcherNetworks = appleFetcherNetworks
        self.trustedProxies = trustedProxies
    }

    package mutating func serve(_ content: ServingSnapshot) {
        table = content.table
        responses.removeAll()
        hosts.removeAll()
    }
}

extension EventLoop where Handler == SiteHandler {
    /// `run` for the sites' loops. Called from this target, where the compiler sees the
    /// handler's type and specializes the whole loop for it (the core's code is visible here:
    /// Package.swift, cross-module optimization); from the server's target `run` would be the
    /// generic code, a witness call per request (docs/ARCHITECTURE.md, "Threads").
    package func serveSites() {
        run()
    }
}
