import AASALoop
import AASASiteServing
import AASASites
import AASASystem
import AssociationKit
import Foundation

extension StatusPage {
    /// One site: its name, aliases and the platforms' caches once, then a row per file with its
    /// true size and the notes `validate` gives it (warnings and errors shown, notes behind a
    /// `<details>`: no script under the page's CSP).
    static func siteGroup(
        _ record: SiteRecord, aliases: [String], aliasCount: Int, state: ServerState, comparisons: inout Int
    ) -> String {
        var names = aliases.isEmpty ? "<span class=\"none\">none</span>" : escape(aliases.joined(separator: ", "))
        if aliasCount > aliases.count {
            names += " <span class=\"none\">and \(aliasCount - aliases.count) more (search finds them)</span>"
        }
        var html =
            "<section class=\"site\"><h3 class=\"site-name\">\(escape(record.name))</h3>\n<dl class=\"facts\">"
            + "<div><dt>Aliases</dt><dd class=\"aliases\">\(names)</dd></div>"
            + "<div><dt>Apple's CDN</dt><dd class=\"cdn\">\(cdnText(SiteCDNStatus(site: record.name, state: state)))"
            + "</dd></div><div><dt>Google</dt><dd class=\"google\">"
            + "\(cacheText(SiteCacheStatus(site: record.name, watch: state.googleWatch)))</dd></div>"
            + certificateFact(state.acme?.managed(primary: record.name), now: Int(time(nil))) + "</dl>\n"
        guard !record.checks.isEmpty || !record.deletedFiles.isEmpty else {
            return html + "<p><span class=\"warn\">no file</span></p></section>\n"
        }
        html +=
            "<div class=\"scroll\"><table class=\"files\"><tr><th>File</th><th>Bytes</th><th>ETag</th>"
            + "<th>Status</th><th>Notes</th></tr>\n"
        let (agreement, compared) = agreement(record, state: state, comparisons: &comparisons)
        for check in record.checks {
            html += fileRow(record, check, agreement: agreement, notes: state.notes)
        }
        for deleted in record.deletedFiles { html += deletedRow(record, deleted) }
        html += "</table></div>"
        if !compared {
            html += "<p class=\"none deferred\">Its two files are compared on the next view of this page.</p>"
        }
        return html + "</section>\n"
    }

    private static func fileRow(
        _ record: SiteRecord, _ check: FileSummary, agreement: SiteAgreement,
        notes cache: ServedFileCache<PreparedFile, [Diagnostic]>
    ) -> String {
        let served = record.content?.file(named: check.name)
        let status =
            (check.isValid
                ? "<span class=\"ok\">valid</span>"
                : "<span class=\"bad\">invalid</span>" + (served != nil ? " (serving the last good copy)" : ""))
            + expiry(check)
        let (diagnostics, omitted) = agreement.noting(
            check.diagnostics ?? notes(served, check, cache), omitted: check.omitted, of: check.kind)
        let path = check.name
        // As `validate` prints them: notes only with --verbose, here behind a toggle.
        let shown = DiagnosticLines.render(diagnostics, path: path, omitted: omitted) + (check.readError ?? "")
        let hidden = diagnostics.filter { !$0.isShown(withNotes: false) }
        var cell = shown.isEmpty ? "" : "<pre class=\"problems\">\(escape(cut(shown)))</pre>"
        if !hidden.isEmpty {
            let lines = DiagnosticLines.render(hidden, path: path, includeInfo: true)
            cell +=
                "<details class=\"info\"><summary>\(hidden.count) note\(hidden.count == 1 ? "" : "s")</summary>"
                + "<pre>\(escape(cut(lines)))</pre></details>"
        }
        // The size of the file as read: a file that is not served (fallback.json) has no served copy.
        return "<tr class=\"file\"><td>\(escape(path))</td><td class=\"bytes\">\(check.byteCount)</td>"
            + "<td><code>\(escape(served?.etag ?? "-"))</code></td>"
            + "<td>\(status)</td><td class=\"notes\">\(cell.isEmpty ? "-" : cell)</td></tr>\n"
    }

    /// A served file deleted from the folder, its last copy serving out its grace (`SITE011`).
    private static func deletedRow(_ record: SiteRecord, _ deleted: DeletedFile) -> String {
        let served = record.content?.file(named: deleted.name)
        let until = HTTPDate.format(deleted.servedUntil)
        return "<tr class=\"file deleted-file\"><td>\(escape(deleted.name))</td>"
            + "<td class=\"bytes\">\(served?.bytes ?? 0)</td><td><code>\(escape(served?.etag ?? "-"))</code></td>"
            + "<td><span class=\"warn\">deleted</span> (serving the last copy until \(escape(until)))</td>"
            + "<td class=\"notes\">-</td></tr>\n"
    }

    /// Diagnostics cut to `diagnosticsBytes` by bytes: one `Character` can hold any number of
    /// combining marks.
    private static func cut(_ text: String) -> String {
        guard text.utf8.count > diagnosticsBytes else { return text }
        return String(decoding: text.utf8.prefix(diagnosticsBytes), as: UTF8.self) + "\n… (the rest in /sites.json)"
    }

    /// What the site's valid files say about each other, as `validate` finds it, and whether
    /// its two files were compared: found from the served files once per `SiteContent` while
    /// they are all valid (a reload that changes a file makes a new one), found again on each
    /// view while one is invalid and its last good copy serves. Past `comparisons` on this view,
    /// the comparison waits for the next (the passkey notes, cheap, never wait).
    private static func agreement(
        _ record: SiteRecord, state: ServerState, comparisons: inout Int
    ) -> (SiteAgreement, compared: Bool) {
        let valid = { (kind: FileCheck.Kind) in record.checks.contains { $0.kind == kind && $0.isValid } }
        let hasEndpoints = record.checks.contains { $0.kind == .passkeyEndpoints }
        let comparing = valid(.apple) && valid(.android)
        let make = { (content: SiteContent?, compare: Bool) in
            let apple = valid(.apple) ? content?.apple.flatMap { AssociationFileValidator.validate($0.json).file } : nil
            return SiteAgreement(
                apple: apple,
                android: valid(.android)
                    ? content?.android.flatMap { AssetLinksValidator.validate($0.json).file } : nil,
                hasEndpoints: hasEndpoints, folder: record.name, comparing: compare)
        }
        if let content = record.content, record.checks.allSatisfy(\.isValid),
            let cached = state.agreements.value(
                for: content,
                make: { content in
                    guard !comparing || comparisons > 0 else { return nil }
                    if comparing { comparisons -= 1 }
                    return make(content, true)
                })
        {
            return (cached, true)
        }
        guard !comparing || comparisons > 0 else { return (make(record.content, false), false) }
        if comparing { comparisons -= 1 }
        return (make(record.content, true), true)
    }

    /// The notes of a clean file, found again from the bytes it serves once (a snapshot keeps
    /// no diagnostics for clean files; a page shows at most `SiteListing.pageSize` sites).
    private static func notes(
        _ served: PreparedFile?, _ check: FileSummary, _ cache: ServedFileCache<PreparedFile, [Diagnostic]>
    ) -> [Diagnostic] {
        guard let served else { return [] }
        let name = (check.name as NSString).lastPathComponent
        return cache.value(for: served) { FileCheck.check($0.json, as: check.kind, name: name).diagnostics } ?? []
    }

    /// `security.txt`'s countdown, counted at each view (the file is not read again as its
    /// `Expires` comes closer): a warning within 30 days, an error once past (RFC 9116 §2.5.5).
    private static func expiry(_ check: FileSummary) -> String {
        guard let expires = check.expires else { return "" }
        let left = expires - Int(time(nil))
        let date = escape(HTTPDate.format(expires))
        if left <= 0 { return " <span class=\"bad\">expired \(date)</span>" }
        if left <= SecurityTxtValidator.expiryWarning {
            return " <span class=\"warn\">expires in \(left / 86_400) days (\(date))</span>"
        }
        return " (expires \(date))"
    }
}
