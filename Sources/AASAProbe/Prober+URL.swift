import AssociationKit

extension Prober {
    /// `probe URL` with a path: which app opens it on each platform, by the origin's files and,
    /// when asked, by Apple's CDN copy and Google's view, with the deciding rule or the reason
    /// none does. Apple's decisions are exact; Android's are `unknown` for a statement without
    /// dynamic rules, whose paths the app's manifest decides (docs/troubleshooting.md).
    func answer(_ text: String, _ files: ServedFiles, into report: inout ProbeReport) {
        let url: MatchURL
        do {
            url = try MatchURL(text)
        } catch {
            report.add("url", .fail, error.description)
            return
        }
        let apple = { (copy: ServedFiles.Copy) in
            Self.decided(
                copy, read: { AssociationFileValidator.validate($0).file.map(AssociationMatcher.init) },
                decide: { $0.decideAll(url, domain: url.host) })
        }
        let android = { (copy: ServedFiles.Copy) in
            Self.decided(
                copy, read: { AssetLinksValidator.validate($0).file.map(AssetLinksMatcher.init) },
                decide: { $0.decideAll(url, domain: url.host) })
        }
        report.add("ios", apple(files.apple), by: "the origin's apple-app-site-association", url: text)
        if let cdn = files.cdn { report.add("ios by apple cdn", apple(cdn), by: "Apple's CDN copy", url: text) }
        report.add("android", android(files.android), by: "the origin's assetlinks.json", url: text)
        if let google = files.google {
            report.add("android by google", android(google), by: "Google's view", url: text)
        }
    }

    /// One platform's decisions for the URL, or why there are none.
    enum Decided {
        case decisions([MatchDecision])
        case missing(String)
        /// Nothing is known of the copy: no decision, not even "none".
        case unknown(String)
    }

    static func decided<Matcher>(
        _ copy: ServedFiles.Copy, read matcher: ([UInt8]) -> Matcher?, decide: (Matcher) -> [MatchDecision]
    ) -> Decided {
        switch copy {
        case .missing(let reason): return .missing(reason)
        case .unknown(let reason): return .unknown(reason)
        case .json(let bytes):
            guard let read = matcher(bytes) else { return .missing("the file cannot be read") }
            return .decisions(decide(read))
        }
    }
}
