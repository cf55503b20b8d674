import AASALoop
import AASASiteServing
import AASASites
import AASASystem
import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc

/// The status page: counts over every site, the invalid sites, then one page of sites (`q`
/// searches names, `page` pages) with aliases, files, ETags, validity and diagnostics; the
/// certificates with their names and expiry; the last reload; and a URL tester that answers
/// with the same matcher as `aasa-server match`. Plain server-rendered HTML, no script, and
/// bounded in size however many sites there are (docs/serving.md, "Many sites").
enum StatusPage {
    /// Certificates listed at most (soonest expiry first), so the page stays bounded.
    static let certificateRows = 200

    static func render(
        _ state: ServerState, testing url: String?, query: String? = nil, page: String? = nil,
        only: Set<String>? = nil
    ) -> String {
        let snapshot = state.snapshots.current
        let table = snapshot.table
        let reloads = state.reloads
        let lastProblems = reloads.lastProblems.map(\.rendered).joined(separator: "\n")
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>aasa-server status</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1em; max-width: 80em; color: #1f2328; }
            h1 { font-size: 1.5em; margin: .3em 0; } h2 { font-size: 1.2em; margin: 1.6em 0 .4em; }
            h3 { font-size: 1.05em; margin: 0 0 .3em; overflow-wrap: anywhere; }
            table { border-collapse: collapse; margin: .6em 0; display: block; overflow-x: auto; max-width: 100%; }
            th, td { border: 1px solid #d0d7de; padding: .3em .6em; text-align: left; vertical-align: top; }
            th { background: #f6f8fa; font-weight: 600; }
            .ok { color: #1a7f37; } .bad { color: #b3261e; font-weight: 600; } .warn { color: #8a5a00; }
            .none { color: #656d76; }
            pre { white-space: pre-wrap; overflow-wrap: break-word; margin: 0; font-size: 12px; }
            code { overflow-wrap: break-word; }
            input[type=url], input[type=search] { width: 100%; max-width: 40em; box-sizing: border-box; padding: .3em; }
            form { display: flex; gap: .4em; flex-wrap: wrap; }
            .scroll { overflow-x: auto; }
            .site { border: 1px solid #d0d7de; border-radius: 6px; padding: .7em .9em; margin: .8em 0; }
            .facts { display: flex; flex-wrap: wrap; gap: .2em 2em; margin: 0; }
            .facts dt { display: inline; font-weight: 600; } .facts dt::after { content: ": "; }
            .facts dd { display: inline; margin: 0; }
            .files { display: table; width: 100%; } .files .bytes { text-align: right; font-variant-numeric: tabular-nums; }
            .files td.notes, #tester td:nth-child(n+4) { min-width: 16em; }
            details.info summary { cursor: pointer; color: #656d76; }
            </style></head><body>
            <h1>aasa-server</h1>

            """
        html +=
            "<p>Up since \(escape(HTTPDate.format(state.started))). Last reload attempt "
            + "\(escape(HTTPDate.format(reloads.lastAttempt))); "
        html += "\(reloads.succeeded) succeeded, \(reloads.partial) partly applied, \(reloads.failed) failed.</p>\n"
        if reloads.lastOutcome == .partial {
            html +=
                "<p class=\"warn\" id=\"reload-partial\">The last reload was partly applied. Changed: "
                + "\(escape(reloads.lastChanged.joined(separator: ", "))). Kept their last good files: "
                + "\(escape(reloads.lastKept.joined(separator: ", "))).</p><pre>\(escape(lastProblems))</pre>\n"
        } else if reloads.lastOutcome == .failed {
            html +=
                "<p class=\"bad\" id=\"reload-failure\">The last reload was refused; the last good files keep "
                + "serving:</p><pre>\(escape(lastProblems))</pre>\n"
        } else if !reloads.skippedAtStart.isEmpty {
            html +=
                "<p class=\"warn\" id=\"startup-skipped\">Started without the invalid sites (--invalid-sites skip): "
                + "\(escape(reloads.skippedAtStart.joined(separator: ", "))).</p><pre>\(escape(lastProblems))</pre>\n"
        }
        html += unwatchedNote(state.unwatched)
        html += summarySection(snapshot)
        html += testerSection(table, url: url, matchers: state.matchers, androidMatchers: state.androidMatchers)
        html += invalidSection(snapshot)
        for watch in [state.cdnWatch, state.googleWatch].compactMap({ $0 }) {
            html += cacheSection(watch, filtered: only != nil)
        }
        html += sitesSection(snapshot, SiteListing(snapshot, query: query, page: page, only: only), state: state)
        if let store = snapshot.certificates { html += certificatesSection(store, snapshot: snapshot) }
        if let manager = state.acme { html += acmeSection(manager, now: Int(time(nil))) }
        html += "</body></html>\n"
        return html
    }

    /// Folders past inotify's watch limit, sites and certificates alike: their changes wait for SIGHUP.
    static func unwatchedNote(_ unwatched: UnwatchedFolders) -> String {
        let (sites, certificates) = (unwatched.sites, unwatched.certificates)
        guard sites > 0 || certificates > 0 else { return "" }
        return "<p class=\"warn\" id=\"unwatched\">Not watched (fs.inotify.max_user_watches reached): "
            + "\(sites) site folders, \(certificates) certificate folders. Changes inside them are seen at the "
            + "next SIGHUP; raise the limit (sysctl) for them to be seen at once.</p>\n"
    }

    static func testerSection(
        _ table: SiteTable, url: String?, matchers: ServedFileCache<PreparedFile, AssociationMatcher>,
        androidMatchers: ServedFileCache<PreparedFile, AssetLinksMatcher>
    ) -> String {
        var html = """
            <h2>Which app opens a URL?</h2>
            <form method="get" action="/">
            <input type="url" name="url" placeholder="https://example.com/path" value="\(escape(url ?? ""))">
            <button type="submit">Test</button></form>

            """
        guard let url, !url.isEmpty else { return html }
        let parsed: MatchURL
        do {
            parsed = try MatchURL(url)
        } catch {
            return html + "<p class=\"bad\" id=\"tester-error\">\(escape(error.description))</p>\n"
        }
        let site = table.site(forHost: parsed.host)
        let fallback = fallbackSection(site, url: url)
        let apple = site?.apple.flatMap { file in
            matchers.value(for: file) { AssociationFileValidator.validate($0.json).file.map(AssociationMatcher.init) }
        }
        let android = site?.android.flatMap { file in
            androidMatchers.value(for: file) { AssetLinksValidator.validate($0.json).file.map(AssetLinksMatcher.init) }
        }
        guard apple != nil || android != nil else {
            return html
                + "<p class=\"bad\" id=\"tester-error\">No site here serves an apple-app-site-association or an "
                + "assetlinks.json for \(escape(parsed.host)).</p>\n" + fallback
        }
        // Both platforms side by side, as `aasa-server match --sites` prints them.
        html +=
            "<table id=\"tester\"><tr><th>Platform</th><th>App</th><th>Decision</th><th>Rule</th><th>Why</th></tr>\n"
        let platforms: [(String, [MatchDecision]?, String)] = [
            ("iOS", apple?.decideAll(parsed, domain: parsed.host), "The file lists no app under applinks.details"),
            (
                "Android", android?.decideAll(parsed, domain: parsed.host),
                "No statement grants handle_all_urls to an android_app"
            ),
        ]
        for (platform, decisions, empty) in platforms {
            guard let decisions else {
                let file = platform == "iOS" ? "apple-app-site-association" : "assetlinks.json"
                html += "<tr><td>\(platform)</td><td colspan=\"4\">The site has no \(file).</td></tr>\n"
                continue
            }
            if decisions.isEmpty { html += "<tr><td>\(platform)</td><td colspan=\"4\">\(empty).</td></tr>\n" }
            for decision in decisions {
                let marker =
                    switch decision.outcome {
                    case .match: "ok"
                    case .exclude, .unknown: "warn"
                    case .noMatch: "bad"
                    }
                html +=
                    "<tr class=\"decision\"><td>\(platform)</td><td>\(escape(decision.appID))</td><td "
                    + "class=\"\(marker)\">\(decision.outcome.rawValue)</td>"
                html +=
                    "<td><code>\(escape(decision.rule ?? "-"))</code></td><td>\(escape(decision.reason))</td></tr>\n"
            }
        }
        return html + "</table>\n" + fallback
    }

    /// Every text from input reaches the page through here (`HTMLText`, by bytes).
    static func escape(_ text: String) -> String {
        HTMLText.escape(text)
    }
}
