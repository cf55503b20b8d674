/// How `diff --against-live` fetches a file over HTTPS (as `probe` does), supplied by the
/// full executable; the portable build has none.
package struct LiveFileSource: Sendable {
    package struct Request: Sendable {
        /// The site, lower-cased.
        package var domain: String
        /// The well-known path of the file kind compared.
        package var path: String
        /// Fetch Apple's CDN copy of `domain` instead.
        package var cdn: Bool
        package var cacert: String?
        /// `--connect-to HOST:PORT` as given.
        package var connectTo: String?
        package var timeout: Double

        package init(domain: String, path: String, cdn: Bool, cacert: String?, connectTo: String?, timeout: Double) {
            self.domain = domain
            self.path = path
            self.cdn = cdn
            self.cacert = cacert
            self.connectTo = connectTo
            self.timeout = timeout
        }
    }

    package enum Outcome: Sendable {
        /// The body of a 200, and the URL it came from.
        case fetched([UInt8], url: String)
        /// Why there is no file, and the URL asked.
        case failed(String, url: String)
    }

    /// Whether `--connect-to`'s value is a HOST:PORT the fetcher can dial.
    package let acceptsAddress: @Sendable (String) -> Bool
    package let fetch: @Sendable (Request) -> Outcome

    package init(
        acceptsAddress: @escaping @Sendable (String) -> Bool, fetch: @escaping @Sendable (Request) -> Outcome
    ) {
        self.acceptsAddress = acceptsAddress
        self.fetch = fetch
    }
}
