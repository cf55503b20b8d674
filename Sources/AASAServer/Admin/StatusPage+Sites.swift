import AASALoop
import AASASites
import AASASystem
import AASATransport
import AssociationKit
import Foundation

extension StatusPage {
    /// Invalid sites listed at most; the rest are counted (search or `/sites.json` finds them).
    static let invalidRows = 100
    /// A file's diagnostics shown in the table at most, in bytes; the page stays under 512 KiB.
    static let diagnosticsBytes = 2048
    /// Sites whose two files are compared (`PlatformComparison`, milliseconds each) on one view
    /// at most; the others on the next views (they are kept for 200 sites), so that the first
    /// view of a page costs little more than it did without.
    static let comparisonsPerView = 20

    static func summarySection(_ snapshot: ServerSnapshot) -> String {
        let counts = snapshot.counts
        return """
            <h2>Summary</h2>
            <table id="summary"><tr><th>Sites (folders)</th><th>Aliases (links to a site)</th><th>Valid</th>\
            <th>Invalid, keeping a last good copy</th><th>Invalid, not served</th><th>Files</th></tr>
            <tr><td>\(counts.sites)</td><td>\(counts.aliases)</td><td class="ok">\(counts.valid)</td>\
            <td class="\(counts.keptLastGood > 0 ? "bad" : "ok")">\(counts.keptLastGood)</td>\
            <td class="\(counts.refused > 0 ? "bad" : "ok")">\(counts.refused)</td><td>\(counts.files)</td></tr>
            </table>

            """
    }

    /// The invalid sites first, with their first problem: what an operator has to fix.
    static func invalidSection(_ snapshot: ServerSnapshot) -> String {
        let counts = snapshot.counts
        let total = counts.keptLastGood + counts.refused
        guard total > 0 else { return "" }
        let invalid = snapshot.catalog.records.values.filter { $0.state != .valid }.sorted { $0.name < $1.name }
        var html =
            "<h2>Invalid sites</h2>\n<table id=\"invalid\"><tr><th>Site</th><th>Serving</th><th>First problem</th>"
            + "</tr>\n"
        for record in invalid.prefix(invalidRows) {
            let serving = record.state == .keptLastGood ? "the last good copy" : "nothing (404)"
            let first = record.problems.first { $0.severity == .error }?.rendered ?? ""
            html +=
                "<tr class=\"invalid-site\"><td><a href=\"/?q=\(escape(record.name))\">\(escape(record.name))</a>"
                + "</td><td>\(serving)</td><td><pre>\(escape(String(first.prefix(diagnosticsBytes))))</pre></td></tr>\n"
        }
        html += "</table>\n"
        if total > invalidRows { html += "<p>and \(total - invalidRows) more invalid sites.</p>\n" }
        return html
    }

    /// One page of sites, searchable by name.
    static func sitesSection(_ snapshot: ServerSnapshot, _ listing: SiteListing, state: ServerState) -> String {
        let query = escape(listing.query)
        var html = """
            <h2>Sites</h2>
            <form method="get" action="/" id="search">
            <input type="search" name="q" placeholder="part of a site name" value="\(query)">
            <button type="submit">Search</button></form>

            """
        let first = (listing.page - 1) * SiteListing.pageSize
        html +=
            "<p id=\"paging\">\(listing.total == 0 ? 0 : first + 1)–\(first + listing.records.count) of "
            + "\(listing.total) sites\(listing.query.isEmpty ? "" : " matching “\(query)”"); page \(listing.page) "
            + "of \(listing.pages)."
        let search = listing.query.isEmpty ? "" : "q=\(percentEncoded(listing.query))&amp;"
        if listing.page > 1 { html += " <a rel=\"prev\" href=\"/?\(search)page=\(listing.page - 1)\">Previous</a>" }
        if listing.page < listing.pages {
            html += " <a rel=\"next\" href=\"/?\(search)page=\(listing.page + 1)\">Next</a>"
        }
        html +=
            " (<a href=\"/sites.json?\(search)page=\(listing.page)\">JSON</a>)</p>\n<div id=\"sites\">\n"
        var comparisons = comparisonsPerView
        for record in listing.records {
            html += siteGroup(
                record, aliases: listing.aliases[record.name] ?? [], aliasCount: listing.aliasCounts[record.name] ?? 0,
                state: state, comparisons: &comparisons)
        }
        return html + "</div>\n"
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_*")))
            ?? ""
    }
}
