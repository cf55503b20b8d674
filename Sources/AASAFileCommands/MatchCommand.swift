import AASASites
import ArgumentParser
import AssociationKit
import Foundation

/// `aasa-server match (--file FILE | --sites DIR) [--domain HOST] [--app APPID] [--json] URL...`
package struct MatchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Tell which app opens a URL, by Apple's matching rules (or Android's, for assetlinks.json).",
        discussion: """
            For every app in the file (or only --app): match, exclude or no_match, with the \
            deciding rule; with a fallback.json beside the file, also what a browser without the \
            app gets (per platform). A URL whose host is not --domain is no_match for every app. Exit 0 \
            when every URL opens an app, 1 when one does not, 2 for a usage error or a file \
            that is not JSON or whose shape cannot be read. Diagnostics go to stderr.
            """)

    @Option(help: "The apple-app-site-association file to test.")
    var file: String?

    @Option(help: "A sites directory; the site is chosen by --domain (else the URLs' host) as the server would.")
    var sites: String?

    @Option(help: "The domain the file is served for; URLs on other hosts never match.")
    var domain: String?

    @Option(help: "Report only this app identifier.")
    var app: String?

    @Flag(help: "Print one JSON object per URL.")
    var json = false

    @Flag(help: "With --sites: test the site's assetlinks.json (Android) instead of its apple-app-site-association.")
    var android = false

    @Argument(help: "The URLs to test.")
    var urls: [String] = []

    package init() {}

    package func validate() throws {
        if (file == nil) == (sites == nil) { throw ValidationError("give exactly one of --file FILE or --sites DIR") }
        if urls.isEmpty { throw ValidationError("give at least one URL") }
    }

    package func run() throws {
        let domain = try effectiveDomain()
        let path = try associationFilePath(domain: domain)
        guard let data = FileManager.default.contents(atPath: path) else {
            StandardStreams.writeError("\(path): error: cannot read the file\n")
            throw CommandFailure.unreadable
        }
        let bytes = [UInt8](data)
        let decider: (MatchURL) -> [MatchDecision]
        let isAndroid = FileCheck.kind(ofFileAt: path, bytes: bytes) == .android
        if isAndroid {
            let report = AssetLinksValidator.validate(bytes)
            let matcher = AssetLinksMatcher(
                file: try readable(report.file, report.diagnostics, report.omitted, path, "a statement list Android"))
            decider = { url in
                app.map { [matcher.decide(url, package: $0, domain: domain)] } ?? matcher.decideAll(url, domain: domain)
            }
        } else {
            // A signed file matches as its JSON content does; its findings go to stderr.
            let report = AssociationFileValidator.validate(bytes, signed: .command(domain: domain))
            let matcher = AssociationMatcher(
                file: try readable(report.file, report.diagnostics, report.omitted, path, "an association file Apple"))
            decider = { url in
                app.map { [matcher.decide(url, appID: $0, domain: domain)] } ?? matcher.decideAll(url, domain: domain)
            }
        }
        let fallback = fallbackPlan(beside: path)
        var allOpened = true
        for text in urls {
            let url = try MatchURL.fromArgument(text)
            let decisions = decider(url)
            if !decisions.contains(where: { $0.outcome == .match }) { allOpened = false }
            // What a browser without the app gets, when the site has a fallback.json.
            let explanations = try? fallback?.explain(text)
            if json {
                StandardStreams.write(MatchOutput.json(url: text, domain: domain, decisions, fallback: explanations))
            } else {
                StandardStreams.write(
                    MatchOutput.text(url: text, decisions, android: isAndroid)
                        + (explanations.map(MatchOutput.fallbackText) ?? ""))
            }
        }
        if !allOpened { throw CommandFailure.invalid }
    }

    /// Prints the file's diagnostics to stderr and returns what was read. Matching goes on as
    /// the platform would even for a file with warnings or errors; only a file that cannot be
    /// read at all is refused (exit 2).
    func readable<File>(
        _ file: File?, _ diagnostics: [Diagnostic], _ omitted: OmittedDiagnostics, _ path: String, _ what: String
    ) throws -> File {
        StandardStreams.writeError(DiagnosticLines.render(diagnostics, path: path, omitted: omitted))
        guard let file else {
            StandardStreams.writeError("\(path): error: not \(what) could read; nothing to match\n")
            throw CommandFailure.unreadable
        }
        return file
    }

    /// `--domain`, else with `--sites` the one host the URLs share: the site a request for them
    /// would reach, as the server chooses it by the Host header.
    func effectiveDomain() throws -> String? {
        if let domain { return domain }
        guard sites != nil else { return nil }
        var hosts: [String] = []
        for text in urls {
            let url = try MatchURL.fromArgument(text)
            if !hosts.contains(url.host) { hosts.append(url.host) }
        }
        guard hosts.count <= 1 else {
            StandardStreams.writeError(
                "error: the URLs are on \(hosts.count) hosts (\(hosts.joined(separator: ", "))); "
                    + "give --domain HOST to choose the site\n")
            throw CommandFailure.unreadable
        }
        return hosts.first
    }

    func associationFilePath(domain: String?) throws -> String {
        if let file { return file }
        guard let sites else { throw CommandFailure.unreadable }
        // validate() asks for a URL, and effectiveDomain() takes the host of the URLs.
        guard let domain else { throw CommandFailure.unreadable }
        let root = URL(fileURLWithPath: sites)
        guard let directory = try? SiteDirectory(root: root) else {
            StandardStreams.writeError("\(sites): error: not a readable sites directory\n")
            throw CommandFailure.unreadable
        }
        guard let site = directory.site(forHost: domain) else {
            let reason = HostName.normalize(domain).flatMap { directory.skipped[$0]?.reason }
            StandardStreams.writeError(
                "\(sites): error: "
                    + (reason ?? "no site folder serves \(domain) (no exact folder, no matching *.domain folder)")
                    + "\n")
            throw CommandFailure.unreadable
        }
        return site.folder.appendingPathComponent(android ? SiteDirectory.androidFileName : SiteDirectory.appleFileName)
            .path
    }
}
