import AASALoop
import AASASiteServing
import AssociationKit

extension StatusPage {
    /// The clients of `FallbackClient` as people know them; a client missing here shows its raw value.
    static let clientNames: [FallbackClient: String] = [
        .iOS: "iPhone or iPad", .iOSInApp: "In-app browser on iOS", .android: "Android phone",
        .androidInApp: "In-app browser on Android", .desktop: "Desktop browser", .crawler: "Link-preview fetcher",
    ]

    /// The URL tester's second table: what a browser without the app gets for the URL from the
    /// site's fallback.json, per platform (docs/fallback.md, "The link domain for people without the app").
    static func fallbackSection(_ site: SiteContent?, url: String) -> String {
        guard let site else { return "" }
        guard let fallback = site.fallback else {
            return "<p id=\"fallback-none\">The site has no fallback.json: without the app, the URL gets 404.</p>\n"
        }
        guard let explanations = try? fallback.plan.explain(url) else { return "" }
        var html = "<h3>Without the app (fallback.json)</h3>\n<table id=\"fallback\"><tr><th>Client</th>"
        html += "<th>Status</th><th>Answer</th><th>Destination</th><th>Rule</th></tr>\n"
        for explanation in explanations {
            var answer =
                switch explanation.kind {
                case .redirect: "redirect"
                case .notFound: "404 (excluded)"
                case .preview: "link preview"
                case .page: explanation.pageName
                }
            if let evidence = explanation.evidence { answer += "; decided by " + evidence.rawValue }
            let rule = explanation.ruleIndex.map { "rules[\($0)]: " + (explanation.rule ?? "") } ?? "-"
            let client = clientNames[explanation.client] ?? explanation.client.rawValue
            html += "<tr class=\"fallback\"><td>\(escape(client))</td>"
            html += "<td>\(explanation.status)</td><td>\(escape(answer))</td>"
            html +=
                "<td><code>\(escape(explanation.destination))</code></td><td><code>\(escape(rule))</code></td></tr>\n"
        }
        return html + "</table>\n"
    }
}
