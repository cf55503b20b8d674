import AASALoop

extension SiteFallback {
    /// The first link of a landing page in an in-app browser, where universal links and App
    /// Links rarely fire (docs/fallback.md, "In-app browsers").
    enum WayOut {
        /// iOS 17 and later open `x-safari-https://HOST/PATH` in Safari; Safari then shows the
        /// page with the Smart App Banner, which opens the app when it is installed.
        case safari
        /// Android: `intent://HOST/PATH?QUERY#Intent;scheme=https;package=…;S.browser_fallback_url=…;end`
        /// opens the app when installed (an App Link's intent), else the web destination in the browser.
        case intent(package: String)

        func write(into page: inout PageTemplate) {
            switch self {
            case .safari:
                page.markup("<a id=\"app\" href=\"x-safari-https://")
                page.append(.linkAfterScheme)
                page.markup("\">Open in Safari</a>\n")
            case .intent(let package):
                page.markup("<a id=\"app\" href=\"intent://")
                page.append(.linkAfterScheme)
                page.value("#Intent;scheme=https;package=\(package);S.browser_fallback_url=")
                page.append(.encodedDestination)
                page.markup(";end\">Open in the app</a>\n")
            }
        }
    }
}
