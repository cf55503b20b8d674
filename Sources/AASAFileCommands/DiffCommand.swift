import AASASites
import ArgumentParser
import AssociationKit
import Foundation

/// `aasa-server diff OLD NEW [--url URL]... [--urls FILE] [--json]`, or `diff OLD
/// --against-live DOMAIN [--cdn]`: what changed in meaning between two versions of a file,
/// and which URLs now open (or stop opening) which app.
package struct DiffCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed in meaning between two association files, and which URL decisions change.",
        discussion: """
            OLD and NEW are two apple-app-site-association files, two assetlinks.json files, or \
            two webauthn or passkey-endpoints files (by OLD's name). \
            Formatting, key order and whitespace are no change. With --against-live DOMAIN, NEW \
            is fetched from the live host over HTTPS (or from Apple's CDN with --cdn). Exit 0 \
            same meaning, 1 changed, 2 usage error or unreadable input.
            """)

    @Argument(help: "The old file.")
    var old: String

    @Argument(help: "The new file (not with --against-live).")
    var new: String?

    @Option(name: .customLong("url"), help: "A URL whose decisions to compare (repeatable).")
    var urls: [String] = []

    @Option(name: .customLong("urls"), help: "A file of URLs, one per line (# starts a comment).")
    var urlsFile: String?

    @Flag(help: "Print one JSON document.")
    var json = false

    @Option(name: .customLong("against-live"), help: "Fetch NEW from https://DOMAIN (as probe does).")
    var againstLive: String?

    @Flag(help: "With --against-live: fetch Apple's CDN copy of DOMAIN instead.")
    var cdn = false

    @Option(help: "With --against-live: trust this CA certificate (PEM) instead of the system store.")
    var cacert: String?

    @Option(name: .customLong("connect-to"), help: "With --against-live: dial HOST:PORT instead.")
    var connectTo: String?

    @Option(help: "With --against-live: seconds allowed for each step.")
    var timeout: Double = 10

    package init() {}

    package func validate() throws {
        if (new == nil) == (againstLive == nil) {
            throw ValidationError("give NEW, or --against-live DOMAIN, not both")
        }
        if cdn && againstLive == nil { throw ValidationError("--cdn needs --against-live DOMAIN") }
        if againstLive != nil && FileCommandServices.liveFiles == nil {
            throw ValidationError("--against-live needs the HTTPS client, which this build of aasa-server lacks")
        }
        if let connectTo, let live = FileCommandServices.liveFiles, !live.acceptsAddress(connectTo) {
            throw ValidationError("--connect-to takes HOST:PORT")
        }
        if !(timeout > 0 && timeout <= 120) { throw ValidationError("--timeout must be between 0 and 120 seconds") }
    }

    package func run() throws {
        let oldBytes = try read(old)
        let kind = FileCheck.kind(ofFileAt: old, bytes: oldBytes)
        let isAndroid = kind == .android
        let (newBytes, newName) = try fetchNew(kind)
        // A kind whose meaning diff does not know (`WellKnownFile.diffed`) is compared by its bytes.
        if kind == .webauthn || kind == .passkeyEndpoints || !kind.file.diffed {
            let changes =
                kind.file.diffed
                ? try passkeyChanges(kind, oldBytes, newBytes, newName: newName)
                : oldBytes == newBytes ? [] : [MeaningChange(kind.rawValue, .changed, "bytes")]
            StandardStreams.write(json ? DiffOutput.json(changes, []) : DiffOutput.text(changes, []))
            if !changes.isEmpty { throw CommandFailure.invalid }
            return
        }
        let urlTexts = try allURLs()
        var changes: [MeaningChange]
        var decisions: [DecisionChange] = []
        if isAndroid {
            let before = try decoded(AssetLinksValidator.validate(oldBytes).file, old, "a statement list")
            let after = try decoded(AssetLinksValidator.validate(newBytes).file, newName, "a statement list")
            changes = MeaningDiff.compare(before, after)
            let (oldMatcher, newMatcher) = (AssetLinksMatcher(file: before), AssetLinksMatcher(file: after))
            let packages = Self.union(
                oldMatcher.decideAll(try Self.anyURL()).map(\.appID),
                newMatcher.decideAll(try Self.anyURL()).map(\.appID))
            for text in urlTexts {
                let url = try MatchURL.fromArgument(text)
                for package in packages {
                    decisions += DecisionChange.between(
                        text, oldMatcher.decide(url, package: package), newMatcher.decide(url, package: package),
                        android: true)
                }
            }
        } else {
            // Signed or not, each file is compared by the meaning of its JSON.
            let signing = SignedFileContext.command()
            let before = try decoded(
                AssociationFileValidator.validate(oldBytes, signed: signing).file, old, "an association file")
            let after = try decoded(
                AssociationFileValidator.validate(newBytes, signed: signing).file, newName, "an association file")
            changes = MeaningDiff.compare(before, after)
            let (oldMatcher, newMatcher) = (AssociationMatcher(file: before), AssociationMatcher(file: after))
            for text in urlTexts {
                let url = try MatchURL.fromArgument(text)
                for app in Self.union(oldMatcher.appIDs, newMatcher.appIDs) {
                    decisions += DecisionChange.between(
                        text, oldMatcher.decide(url, appID: app), newMatcher.decide(url, appID: app), android: false)
                }
            }
        }
        StandardStreams.write(json ? DiffOutput.json(changes, decisions) : DiffOutput.text(changes, decisions))
        if !changes.isEmpty || !decisions.isEmpty { throw CommandFailure.invalid }
    }

    private func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            StandardStreams.writeError("\(path): error: cannot read the file\n")
            throw CommandFailure.unreadable
        }
        return [UInt8](data)
    }

    /// NEW from its file, or fetched like `probe` does: the bytes and how to name them.
    private func fetchNew(_ kind: FileCheck.Kind) throws -> ([UInt8], String) {
        if let new { return (try read(new), new) }
        // Each file a site serves is at /.well-known/ under its own name.
        let file = (kind.file.isServed ? kind : .apple).file.paths[0]
        let request = LiveFileSource.Request(
            domain: (againstLive ?? "").lowercased(), path: file, cdn: cdn, cacert: cacert, connectTo: connectTo,
            timeout: timeout)
        switch FileCommandServices.liveFiles?.fetch(request) {
        case .fetched(let body, let url): return (body, url)
        case .failed(let reason, let url): StandardStreams.writeError("\(url): error: \(reason)\n")
        case nil: StandardStreams.writeError("error: this build of aasa-server cannot fetch live files\n")
        }
        throw CommandFailure.unreadable
    }

    func decoded<File>(_ file: File?, _ name: String, _ what: String) throws -> File {
        guard let file else {
            StandardStreams.writeError(
                "\(name): error: not \(what) the platform could read (run validate for the details)\n")
            throw CommandFailure.unreadable
        }
        return file
    }

    private func allURLs() throws -> [String] {
        guard let urlsFile else { return urls }
        let text = String(decoding: try read(urlsFile), as: UTF8.self)
        return urls
            + text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty && !$0.hasPrefix("#")
            }
    }

    /// Any URL: Android's `decideAll` lists every package a file names, whatever the URL.
    private static func anyURL() throws -> MatchURL { try MatchURL("https://example.invalid/") }

    private static func union(_ first: [String], _ second: [String]) -> [String] {
        first + second.filter { !first.contains($0) }
    }
}
