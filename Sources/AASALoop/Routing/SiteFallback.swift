import AssociationKit

/// A site's `fallback.json` compiled at load: the decision (`FallbackPlan`, with the site's
/// matchers) and the responses' fixed parts, so a request costs the decision and the copy of
/// its own values (docs/usage.md, "The link domain for people without the app").
package final class SiteFallback: Sendable {
    package let plan: FallbackPlan
    /// The file's bytes, to tell a reload that read the same file from a changed one.
    let bytes: [UInt8]
    let appStorePage: PageTemplate?
    let playPage: PageTemplate?
    /// The same pages for in-app browsers, led by the way out: `x-safari-https://` on iOS, an
    /// `intent://` link on Android (docs/fallback.md, "In-app browsers").
    let appStoreInAppPage: PageTemplate?
    let playInAppPage: PageTemplate?
    let previewPage: PageTemplate?

    /// Every fallback answer varies by User-Agent and stays out of shared caches
    /// (RFC 9111 §5.2.2.7 `private`); pages are never sniffed, framed or indexed.
    static let commonHeaders = Array(
        ("Server: aasa-server\r\nVary: User-Agent\r\nCache-Control: private, max-age=60\r\n").utf8)
    /// Everything of a 302's head after the Date up to the Location's value, in one copy.
    static let redirectHeaders = commonHeaders + Array("Content-Length: 0\r\nLocation: ".utf8)
    static let pageHeaders = Array(
        ("Content-Type: text/html; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n"
            + "Content-Security-Policy: default-src 'none'; img-src https: http:; style-src 'unsafe-inline'; "
            + "frame-ancestors 'none'\r\nReferrer-Policy: no-referrer\r\nContent-Length: ").utf8)
    static let notFoundBody = Array("404 Not Found\n".utf8)
    static let notFoundHeaders = Array(
        ("Content-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: "
            + "\(notFoundBody.count)\r\n").utf8)

    package init(file: FallbackFile, bytes: [UInt8], apple: AssociationFile?, android: AssetLinks?) {
        plan = FallbackPlan(file: file, apple: apple, android: android)
        self.bytes = bytes
        let appStore = { (wayOut: WayOut?) in
            file.appStoreID.map { id in
                Self.landingPage(
                    file, banner: "app-id=\(id)", store: "https://apps.apple.com/app/id\(id)",
                    label: "Download on the App Store", wayOut: wayOut)
            }
        }
        // The Play link carries the link for the app to read after the install (the Play Install
        // Referrer API): `referrer=` is `link=URL` percent-encoded, the URL encoded inside it.
        let play = { (wayOut: WayOut?) in
            file.playPackage.map { package in
                Self.landingPage(
                    file, banner: nil,
                    store: "https://play.google.com/store/apps/details?id=\(package)&referrer=link%3D",
                    label: "Get it on Google Play", referrer: true, wayOut: wayOut)
            }
        }
        appStorePage = appStore(nil)
        playPage = play(nil)
        appStoreInAppPage = appStore(.safari)
        playInAppPage = file.playPackage.flatMap { play(.intent(package: $0)) }
        previewPage = file.preview.map(Self.previewPage)
    }

    static let style =
        "<style>body{font:17px/1.5 -apple-system,system-ui,sans-serif;max-width:32em;margin:3em auto;"
        + "padding:0 1em}a{display:block;margin:1em 0;padding:.8em;border-radius:.5em;text-align:center;"
        + "text-decoration:none;background:#0a66d8;color:#fff}a#web{background:#eee;color:#222}</style>"

    /// The page for a phone without the app: the store and the web, and on iOS the Smart App
    /// Banner (Apple, "Promoting apps with Smart App Banners"), whose `app-argument` is the link
    /// (its separators encoded: `PageTemplate.Piece.bannerArgument`).
    static func landingPage(
        _ file: FallbackFile, banner: String?, store: String, label: String, referrer: Bool = false,
        wayOut: WayOut? = nil
    ) -> PageTemplate {
        var page = PageTemplate()
        let title = file.preview?.title ?? "Open in the app"
        page.markup("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        page.markup("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        page.markup("<meta name=\"robots\" content=\"noindex\">\n")
        if let banner {
            page.markup("<meta name=\"apple-itunes-app\" content=\"")
            page.value(banner + ", app-argument=")
            page.bannerArgument()
            page.markup("\">\n")
        }
        page.markup("<title>")
        page.value(title)
        page.markup("</title>\n" + style + "</head>\n<body><main><h1>")
        page.value(title)
        page.markup("</h1>\n")
        if let description = file.preview?.description {
            page.markup("<p>")
            page.value(description)
            page.markup("</p>\n")
        }
        if let wayOut { wayOut.write(into: &page) }
        page.markup("<a id=\"store\" href=\"")
        page.value(store)
        if referrer { page.append(.referrerLink) }
        page.markup("\">" + label + "</a>\n<a id=\"web\" href=\"")
        page.destination()
        page.markup("\">Continue on the web</a>\n</main></body></html>\n")
        return page
    }

    /// The card of a link-preview crawler: Open Graph (ogp.me) and Twitter card tags.
    static func previewPage(_ preview: FallbackPreview) -> PageTemplate {
        var page = PageTemplate()
        page.markup("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        page.markup("<meta name=\"robots\" content=\"noindex\">\n<title>")
        page.value(preview.title)
        page.markup("</title>\n")
        var tags: [(String, String)] = [("og:title", preview.title), ("twitter:title", preview.title)]
        if let description = preview.description {
            tags += [("og:description", description), ("twitter:description", description)]
        }
        if let image = preview.image { tags += [("og:image", image), ("twitter:image", image)] }
        tags.append(("og:type", "website"))
        tags.append(("twitter:card", preview.image == nil ? "summary" : "summary_large_image"))
        for (name, content) in tags {
            page.markup(name.hasPrefix("og:") ? "<meta property=\"" : "<meta name=\"")
            page.markup(name + "\" content=\"")
            page.value(content)
            page.markup("\">\n")
        }
        page.markup("<meta property=\"og:url\" content=\"")
        page.link()
        page.markup("\">\n</head>\n<body><h1>")
        page.value(preview.title)
        page.markup("</h1>\n<a href=\"")
        page.destination()
        page.markup("\">Open</a>\n</body></html>\n")
        return page
    }

    /// The page of a decision that is one (`page` or `preview`).
    func page(for decision: FallbackDecision) -> PageTemplate? {
        switch decision.kind {
        case .preview: previewPage
        case .page:
            decision.isAppStorePage
                ? (decision.isInApp ? appStoreInAppPage : appStorePage) : (decision.isInApp ? playInAppPage : playPage)
        case .notFound, .redirect: nil
        }
    }
}
