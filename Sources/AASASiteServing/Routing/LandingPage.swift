import AASALoop
import AssociationKit

/// The page for a phone without the app, in one language, built once at load into a
/// `PageTemplate` (docs/fallback.md, "Link pages a shop would ship"): one image at most (the
/// icon, else the preview's image), a heading that names the app or the site, the store and the
/// web. It fills a phone's screen (the links at the bottom, in reach of a thumb), follows the
/// system's dark mode, and has no script, no external font and nothing but the image to fetch.
/// On iOS it carries the Smart App Banner (Apple, "Promoting apps with Smart App Banners"),
/// whose `app-argument` is the link (its separators encoded: `PageTemplate.Piece.bannerArgument`).
struct LandingPage {
    static let defaultAccent = AccentColor(red: 0x0A, green: 0x66, blue: 0xD8)
    static let defaultWebLabel = "Continue on the web"

    let file: FallbackFile
    /// The `strings` entry, nil for the default texts.
    let texts: FallbackTexts?
    let store: String
    let label: String
    let banner: String?
    /// The store link ends in the link itself (the Play Install Referrer's `link=`).
    var referrer = false
    /// An in-app browser's way out, the page's first link.
    var wayOut: SiteFallback.WayOut?

    /// Without `preview` or a `title`, the site's name: the web destination's host without
    /// `www.`, never an instruction to open an app the person does not have.
    var title: String {
        if let title = texts?.title ?? file.preview?.title { return title }
        var host = file.web.origin.drop { $0 != UInt8(ascii: "/") }.drop { $0 == UInt8(ascii: "/") }
        if let colon = host.firstIndex(of: UInt8(ascii: ":")) { host = host[..<colon] }
        if host.starts(with: "www.".utf8) { host = host.dropFirst(4) }
        return String(decoding: host, as: UTF8.self)
    }

    /// The image shown: the app's icon, else the preview's image when a page can load it (https).
    var image: (url: String, isIcon: Bool)? {
        if let icon = file.icon { return (icon, true) }
        guard let image = file.preview?.image,
            image.utf8.prefix(8).map({ $0 | 0x20 }).elementsEqual("https://".utf8)
        else { return nil }
        return (image, false)
    }

    var style: String {
        let accent = file.accentColor ?? Self.defaultAccent
        let onAccent = accent.prefersDarkText ? "#111" : "#fff"
        return "<style>:root{--accent:\(accent.hex);--on-accent:\(onAccent);color-scheme:light dark}"
            + "*{box-sizing:border-box}html,body{height:100%;margin:0}"
            + "body{font:17px/1.45 -apple-system,system-ui,\"Segoe UI\",Roboto,sans-serif;"
            + "background:#f5f5f7;color:#1d1d1f;-webkit-text-size-adjust:100%}"
            + "main{min-height:100%;max-width:30em;margin:0 auto;display:flex;flex-direction:column;"
            + "padding:max(2em,env(safe-area-inset-top)) 1.5em max(1.75em,env(safe-area-inset-bottom))}"
            + "header{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;"
            + "text-align:center;padding:1em 0}"
            + ".icon{width:120px;height:120px;border-radius:27px;object-fit:cover;"
            + "box-shadow:0 8px 24px rgba(0,0,0,.18)}"
            + ".mark{display:flex;align-items:center;justify-content:center;font-size:56px;font-weight:700;"
            + "background:var(--accent);color:var(--on-accent)}"
            + ".card{width:100%;max-height:42vh;border-radius:1em;object-fit:cover;"
            + "box-shadow:0 .5em 1.5em rgba(0,0,0,.12)}"
            + "h1{font-size:1.9em;line-height:1.15;margin:.8em 0 .35em;letter-spacing:-.01em;overflow-wrap:anywhere}"
            + "p{margin:0;color:#6e6e73;font-size:1.1em;overflow-wrap:anywhere}"
            + "nav{display:flex;flex-direction:column;gap:.75em;padding-top:1.5em}"
            + "nav a{display:block;padding:1em;border-radius:.9em;text-align:center;text-decoration:none;"
            + "font-weight:600;font-size:1.05em;overflow-wrap:anywhere}"
            + "#store,#app{background:var(--accent);color:var(--on-accent)}"
            + "#web{background:rgba(120,120,128,.14);color:inherit}"
            + "@media(prefers-color-scheme:dark){body{background:#000;color:#f5f5f7}p{color:#a1a1a6}"
            + "#web{background:rgba(120,120,128,.3)}}</style>"
    }

    var template: PageTemplate {
        var page = PageTemplate()
        let accent = file.accentColor ?? Self.defaultAccent
        page.markup("<!doctype html>\n<html lang=\"")
        page.value(texts?.language ?? "en")
        page.markup("\"><head><meta charset=\"utf-8\">\n")
        page.markup("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">\n")
        page.markup("<meta name=\"robots\" content=\"noindex\">\n")
        page.markup("<meta name=\"theme-color\" content=\"\(accent.hex)\">\n")
        if let banner {
            page.markup("<meta name=\"apple-itunes-app\" content=\"")
            page.value(banner + ", app-argument=")
            page.bannerArgument()
            page.markup("\">\n")
        }
        page.markup("<title>")
        page.value(title)
        page.markup("</title>\n" + style + "</head>\n<body><main><header>\n")
        if let image {
            page.markup(image.isIcon ? "<img class=\"icon\" alt=\"\" src=\"" : "<img class=\"card\" alt=\"\" src=\"")
            page.value(image.url)
            page.markup("\">\n")
        } else if let initial = title.first {
            // No image: the name's first letter on the accent colour stands in for an icon.
            page.markup("<div class=\"icon mark\" aria-hidden=\"true\">")
            page.value(String(initial).uppercased())
            page.markup("</div>\n")
        }
        page.markup("<h1>")
        page.value(title)
        page.markup("</h1>\n")
        if let description = texts?.description ?? file.preview?.description {
            page.markup("<p>")
            page.value(description)
            page.markup("</p>\n")
        }
        page.markup("</header>\n<nav>")
        wayOut?.write(into: &page)
        page.markup("<a id=\"store\" href=\"")
        page.value(store)
        if referrer { page.append(.referrerLink) }
        page.markup("\">")
        page.value(texts?.store ?? label)
        page.markup("</a>\n<a id=\"web\" href=\"")
        page.destination()
        page.markup("\">")
        page.value(texts?.web ?? Self.defaultWebLabel)
        page.markup("</a></nav>\n</main></body></html>\n")
        return page
    }
}
