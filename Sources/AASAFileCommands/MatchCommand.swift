import AASASites
import ArgumentParser
import AssociationKit
import Foundation

/// `aasa-server match (--file FILE | --sites DIR) [--domain HOST] [--app APPID] [--android] [--json] URL...`
package struct MatchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Tell which app opens a URL, by Apple's matching rules and Android's.",
        discussion: """
            For every app in the file (or only --app): match, exclude or no_match, with the \
            deciding rule; Android's decision is unknown where a statement has no dynamic rules \
            (the app's manifest decides). With --sites, each URL is answered by the site its host \
            (or --domain) reaches, for both platforms side by side; with a fallback.json beside \
            the files, also what a browser without the app gets (per platform). A URL whose host \
            is not --domain is no_match for every app. Exit 0 when every URL opens an app (no \
            known decision keeps it on the web), 1 when one does not, 2 for a usage error or a \
            file that is not JSON or whose shape cannot be read. Diagnostics go to stderr.
            """)

    @Option(help: "The file to test: an apple-app-site-association or an assetlinks.json.")
    var file: String?

    @Option(help: "A sites directory; each URL's site is chosen by --domain (else its host) as the server would.")
    var sites: String?

    @Option(help: "The domain the file is served for; URLs on other hosts never match.")
    var domain: String?

    @Option(help: "Report only this app: an Apple app ID or an Android package.")
    var app: String?

    @Flag(help: "Print one JSON object per URL.")
    var json = false

    @Flag(help: "With --sites: answer for Android only (the site's assetlinks.json), as --file would.")
    var android = false

    @Argument(help: "The URLs to test.")
    var urls: [String] = []

    package init() {}

    package func validate() throws {
        if (file == nil) == (sites == nil) { throw ValidationError("give exactly one of --file FILE or --sites DIR") }
        if urls.isEmpty { throw ValidationError("give at least one URL") }
    }

    package func run() throws {
        guard let sites else { return try runOnFile() }
        let answers = try siteAnswers(sites: sites)
        var allOpened = true
        for (text, answer) in zip(urls, answers) {
            let url = try MatchURL.fromArgument(text)
            // What a browser without the app gets, when the site has a fallback.json.
            let explanations = try? answer.fallback?.explain(text)
            guard !android else {
                let decisions = answer.android.map { decide(url, $0, domain: answer.domain) } ?? []
                if !decisions.contains(where: { $0.outcome.mayOpen }) { allOpened = false }
                write(text, answer.domain, decisions, android: true, explanations)
                continue
            }
            var apple = answer.apple.map { decide(url, $0, domain: answer.domain) }
            var androidDecisions = answer.android.map { decide(url, $0, domain: answer.domain) }
            if let app {
                // --app names one app: a platform whose file does not list it has nothing to say
                // (Apple's no_match when neither does, as with one file).
                let inAndroid = answer.android?.lists(app) ?? false
                if inAndroid && answer.apple?.lists(app) != true { apple = apple.map { _ in [] } }
                if !inAndroid { androidDecisions = androidDecisions.map { _ in [] } }
            }
            if !MatchOutput.opens(apple: apple, android: androidDecisions) { allOpened = false }
            if json {
                StandardStreams.write(
                    MatchOutput.json(
                        url: text, domain: answer.domain, apple ?? [], android: .some(androidDecisions),
                        fallback: explanations))
            } else {
                StandardStreams.write(
                    MatchOutput.text(url: text, apple: apple, android: androidDecisions, app: app)
                        + (explanations.map(MatchOutput.fallbackText) ?? ""))
            }
        }
        if !allOpened { throw CommandFailure.invalid }
    }

    /// `--file`: one file, Apple's or Android's by its name or content.
    func runOnFile() throws {
        guard let file else { throw CommandFailure.unreadable }
        let decider = try MatchDecider(path: file, domain: domain)
        let fallback = fallbackPlan(beside: file)
        var allOpened = true
        for text in urls {
            let url = try MatchURL.fromArgument(text)
            let decisions = decide(url, decider, domain: domain)
            if !decisions.contains(where: { $0.outcome.mayOpen }) { allOpened = false }
            write(text, domain, decisions, android: decider.isAndroid, try? fallback?.explain(text))
        }
        if !allOpened { throw CommandFailure.invalid }
    }

    /// Every app's decision, or `--app`'s only.
    func decide(_ url: MatchURL, _ decider: MatchDecider, domain: String?) -> [MatchDecision] {
        guard let app else { return decider.decideAll(url, domain) }
        return [decider.decide(url, app, domain)]
    }

    /// One platform's answer, as `match` printed it before it answered for both.
    func write(
        _ text: String, _ domain: String?, _ decisions: [MatchDecision], android: Bool,
        _ explanations: [FallbackExplanation]?
    ) {
        if json {
            StandardStreams.write(MatchOutput.json(url: text, domain: domain, decisions, fallback: explanations))
        } else {
            StandardStreams.write(
                MatchOutput.text(url: text, decisions, android: android)
                    + (explanations.map(MatchOutput.fallbackText) ?? ""))
        }
    }
}
