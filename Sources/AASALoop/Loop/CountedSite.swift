/// What answered a request, for the per-site counters (`LoopSettings.perSiteMetrics`): the
/// handler names it in `RequestOutcome.site`, and the loop reads its name only with per-site
/// metrics on.
package protocol CountedSite: AnyObject {
    var name: String { get }
}
