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
            " (<a href=\"/sites.json?\(search)page=\(listing.page)\">JSON</a>)</p>\n<table "
            + "id=\"sites\"><tr><th>Site</th><th>Aliases</th><th>File</th><th>Bytes</th><th>ETag</th><th>Status</th>"
            + "<th>Diagnostics</th><th>Apple's CDN</th><th>Google</th></tr>\n"
        for record in listing.records {
            let rows: [FileSummary?] = record.checks.isEmpty ? [nil] : record.checks
            let aliases = escape((listing.aliases[record.name] ?? []).joined(separator: ", "))
            let cdn =
                cdnCell(SiteCDNStatus(site: record.name, state: state))
                + "<td>\(cacheText(SiteCacheStatus(site: record.name, watch: state.googleWatch)))</td>"
            for check in rows {
                html += row(record, check, aliases: aliases, cdn: cdn, notes: state.notes)
            }
            for deleted in record.deletedFiles {
                html += deletedRow(record, deleted, aliases: aliases, cdn: cdn)
            }
        }
        return html + "</table>\n"
    }

    private static func row(
        _ record: SiteRecord, _ check: FileSummary?, aliases: String, cdn: String,
        notes cache: ServedFileCache<[Diagnostic]>
    ) -> String {
        let content = record.content
        let served = check.flatMap { content?.file($0.kind) }
        let status =
            check == nil
            ? "<span class=\"warn\">no file</span>"
            : check?.isValid == true
                ? "<span class=\"ok\">valid</span>"
                : "<span class=\"bad\">invalid</span>" + (served != nil ? " (serving the last good copy)" : "")
        var diagnostics =
            check.map {
                DiagnosticLines.render(
                    $0.diagnostics ?? notes(served, $0.kind, cache), path: $0.kind.rawValue, omitted: $0.omitted,
                    includeInfo: true) + ($0.readError ?? "")
            } ?? ""
        if diagnostics.utf8.count > diagnosticsBytes {
            // Cut by bytes: one `Character` can hold any number of combining marks.
            diagnostics =
                String(decoding: diagnostics.utf8.prefix(diagnosticsBytes), as: UTF8.self)
                + "\n… (the rest in /sites.json)"
        }
        return "<tr class=\"site\"><td>\(escape(record.name))</td><td>\(aliases)</td>"
            + "<td>\(escape(check?.kind.rawValue ?? "-"))</td><td>\(served?.bytes ?? 0)</td>"
            + "<td><code>\(escape(served?.etag ?? "-"))</code></td>"
            + "<td>\(status)</td><td><pre>\(escape(diagnostics))</pre></td>\(cdn)</tr>\n"
    }

    /// A served file deleted from the folder, its last copy serving out its grace (`SITE011`).
    private static func deletedRow(_ record: SiteRecord, _ deleted: DeletedFile, aliases: String, cdn: String) -> String
    {
        let served = record.content?.file(deleted.kind)
        let until = HTTPDate.format(deleted.servedUntil)
        return "<tr class=\"site deleted-file\"><td>\(escape(record.name))</td><td>\(aliases)</td>"
            + "<td>\(escape(deleted.kind.rawValue))</td><td>\(served?.bytes ?? 0)</td>"
            + "<td><code>\(escape(served?.etag ?? "-"))</code></td>"
            + "<td><span class=\"warn\">deleted</span> (serving the last copy until \(escape(until)))</td>"
            + "<td><pre></pre></td>\(cdn)</tr>\n"
    }

    /// The notes of a clean file, found again from the bytes it serves once (a snapshot keeps
    /// no diagnostics for clean files; a page shows at most `SiteListing.pageSize` sites).
    private static func notes(
        _ served: PreparedFile?, _ kind: FileCheck.Kind, _ cache: ServedFileCache<[Diagnostic]>
    ) -> [Diagnostic] {
        guard let served else { return [] }
        return cache.value(for: served) { file in
            switch kind {
            case .android: AssetLinksValidator.validate(file.json).diagnostics
            case .webauthn:
                PasskeyValidator.validateWebAuthn(file.json, suffixes: PublicSuffixListFile.system).diagnostics
            case .passkeyEndpoints: PasskeyValidator.validateEndpoints(file.json).diagnostics
            default: AssociationFileValidator.validate(file.json).diagnostics
            }
        } ?? []
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_*")))
            ?? ""
    }
}
