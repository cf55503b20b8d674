import AASALoop
import AssociationKit

/// A site's `fallback.json` compiled at load: the decision (`FallbackPlan`, with the site's
/// matchers) and the responses' fixed parts, so a request costs the decision and the copy of
/// its own values (docs/fallback.md, "The link domain for people without the app").
package final class SiteFallback: Sendable {
    package let plan: FallbackPlan
    /// The file's bytes, to tell a reload that read the same file from a changed one.
    let bytes: [UInt8]
    /// One page per language: the default texts, then one per `strings` entry, in file order;
    /// the in-app ones led by the way out: `x-safari-https://` on iOS, an `intent://` link on
    /// Android (docs/fallback.md, "In-app browsers").
    let appStorePages: [PageTemplate]
    let playPages: [PageTemplate]
    let appStoreInAppPages: [PageTemplate]
    let playInAppPages: [PageTemplate]
    let previewPage: PageTemplate?
    /// Which page an Accept-Language asks for; nil when the file has no `strings`.
    let languages: LanguageChoice?
    /// A page's head after the Date up to its Content-Length value, with `Accept-Language` in
    /// `Vary` when the site's pages differ by it.
    let pageHead: [UInt8]

    /// Every fallback answer varies by User-Agent and stays out of shared caches
    /// (RFC 9111 §5.2.2.7 `private`); pages are never sniffed, framed or indexed.
    static let commonHeaders = headers(vary: "User-Agent")
    /// A page of a site with `strings` also varies by the language asked for (RFC 9110 §12.5.5).
    static let languageHeaders = headers(vary: "User-Agent, Accept-Language")
    /// Everything of a 302's head after the Date up to the Location's value, in one copy.
    static let redirectHeaders = commonHeaders + Array("Content-Length: 0\r\nLocation: ".utf8)
    /// Images only from https (an icon or preview image; http would be mixed content anyway).
    static let pageHeaders = Array(
        ("Content-Type: text/html; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n"
            + "Content-Security-Policy: default-src 'none'; img-src https:; style-src 'unsafe-inline'; "
            + "frame-ancestors 'none'\r\nReferrer-Policy: no-referrer\r\nContent-Length: ").utf8)
    static let notFoundBody = Array("404 Not Found\n".utf8)
    static let notFoundHeaders = Array(
        ("Content-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: "
            + "\(notFoundBody.count)\r\n").utf8)

    static func headers(vary: String) -> [UInt8] {
        Array("Server: aasa-server\r\nVary: \(vary)\r\nCache-Control: private, max-age=60\r\n".utf8)
    }

    package init(file: FallbackFile, bytes: [UInt8], apple: AssociationFile?, android: AssetLinks?) {
        plan = FallbackPlan(file: file, apple: apple, android: android)
        self.bytes = bytes
        let variants: [FallbackTexts?] = [nil] + file.strings.map { $0 }
        let appStore = { (wayOut: WayOut?) in
            file.appStoreID.map { id in
                variants.map { texts in
                    LandingPage(
                        file: file, texts: texts, store: "https://apps.apple.com/app/id\(id)",
                        label: "Download on the App Store", banner: "app-id=\(id)", wayOut: wayOut
                    ).template
                }
            } ?? []
        }
        // The Play link carries the link for the app to read after the install (the Play Install
        // Referrer API): `referrer=` is `link=URL` percent-encoded, the URL encoded inside it.
        let play = { (wayOut: WayOut?) in
            file.playPackage.map { package in
                variants.map { texts in
                    LandingPage(
                        file: file, texts: texts,
                        store: "https://play.google.com/store/apps/details?id=\(package)&referrer=link%3D",
                        label: "Get it on Google Play", banner: nil, referrer: true, wayOut: wayOut
                    ).template
                }
            } ?? []
        }
        appStorePages = appStore(nil)
        playPages = play(nil)
        appStoreInAppPages = appStore(.safari)
        playInAppPages = file.playPackage.map { play(.intent(package: $0)) } ?? []
        previewPage = file.preview.map { Self.previewPage($0, image: $0.image ?? file.icon) }
        languages = file.strings.isEmpty ? nil : LanguageChoice(languages: file.strings.map(\.language))
        pageHead = (file.strings.isEmpty ? Self.commonHeaders : Self.languageHeaders) + Self.pageHeaders
    }

    /// The card of a link-preview crawler: Open Graph (ogp.me) and Twitter card tags.
    static func previewPage(_ preview: FallbackPreview, image: String?) -> PageTemplate {
        var page = PageTemplate()
        page.markup("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        page.markup("<meta name=\"robots\" content=\"noindex\">\n<title>")
        page.value(preview.title)
        page.markup("</title>\n")
        var tags: [(String, String)] = [("og:title", preview.title), ("twitter:title", preview.title)]
        if let description = preview.description {
            tags += [("og:description", description), ("twitter:description", description)]
        }
        if let image { tags += [("og:image", image), ("twitter:image", image)] }
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

    /// The page of a decision that is one (`page` or `preview`), in the language `acceptLanguage`
    /// asks for.
    func page(for decision: FallbackDecision, acceptLanguage: UnsafeBufferPointer<UInt8>?) -> PageTemplate? {
        switch decision.kind {
        case .preview: return previewPage
        case .page:
            let pages =
                decision.isAppStorePage
                ? (decision.isInApp ? appStoreInAppPages : appStorePages)
                : (decision.isInApp ? playInAppPages : playPages)
            // Each list is empty or holds the default page and one per `strings` entry.
            guard !pages.isEmpty else { return nil }
            return pages[acceptLanguage.flatMap { field in languages?.choose(field) }.map { $0 + 1 } ?? 0]
        case .notFound, .redirect: return nil
        }
    }
}
