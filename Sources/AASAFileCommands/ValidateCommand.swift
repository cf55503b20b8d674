import AASASites
import ArgumentParser
import AssociationKit
import Foundation

/// `aasa-server validate [--format text|json|sarif|github] [--json] [--strict] PATH...`: files, site folders
/// or a whole sites directory.
package struct ValidateCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check association files and print every problem, compiler style.",
        discussion: """
            Each PATH is an association file, a site folder (holding apple-app-site-association \
            and/or assetlinks.json) or a sites directory (one folder per domain). A folder's two \
            files are also compared (XPL001, XPL002, on its assetlinks.json). Problems print \
            as PATH:LINE:COLUMN: error|warning: MESSAGE [CODE]. Exit 0 valid (warnings allowed), \
            1 invalid (with --strict also on any warning), 2 usage error or unreadable input.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif, github
    }

    @Option(help: "text (default), json, sarif (SARIF 2.1.0 for code scanning) or github (workflow commands).")
    var format: Format?

    @Flag(help: "Print one JSON document instead of lines (the same as --format json).")
    var json = false

    @Flag(help: "Fail (exit 1) on warnings too, for CI; SARIF and GitHub output then report them as errors.")
    var strict = false

    @Flag(name: .shortAndLong, help: "Also print info notes (for example: iOS 12 cannot read the file).")
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Verify signed (CMS) files' signers against the certificates of this PEM file instead of the system's.",
            valueName: "FILE"))
    var cacert: String?

    @Flag(help: "List every diagnostic code with its severity and meaning, then exit.")
    var listCodes = false

    @Argument(help: "Files, site folders or sites directories.")
    var paths: [String] = []

    package init() {}

    package func validate() throws {
        if paths.isEmpty && !listCodes { throw ValidationError("give at least one file or directory to validate") }
        if json, let format, format != .json { throw ValidationError("--json is --format json; give one of them") }
        if let cacert, !FileManager.default.isReadableFile(atPath: cacert) {
            throw ValidationError("--cacert \(cacert): no such readable file")
        }
    }

    package func run() throws {
        if listCodes {
            for code in DiagnosticCode.allCases {
                StandardStreams.write("\(code.rawValue)\t\(code.severity.rawValue)\t\(code.summary)\n")
            }
            return
        }
        let reader = FileCommandServices.signedFiles(cacert)
        let now = Int(Date().timeIntervalSince1970)
        var results: [FileCheck] = []
        var unreadable: [(path: String, reason: String)] = []
        var warnings: [LoadProblem] = []
        for path in paths {
            switch AssociationFileFinder.files(at: path) {
            case .success(let listing):
                results += listing.files.map { found in
                    FileCheck(
                        path: found.path, kind: found.kind, confined: found.confined,
                        signing: SignedFileContext(reader: reader, domain: found.domain, now: now))
                }
                warnings += listing.warnings
            case .failure(let problem):
                warnings += problem.warnings
                unreadable.append((path, problem.reason))
            }
        }
        // What each folder's files say about each other: its two files compared, its passkey pieces.
        results = SiteAgreement.noting(results)
        for result in results {
            if let readError = result.readError { unreadable.append((result.path, readError)) }
        }
        let output = ValidationOutput(
            results: results, unreadable: unreadable, warnings: warnings, verbose: verbose, strict: strict)
        switch json ? .json : format ?? .text {
        case .text: StandardStreams.write(output.text())
        case .json: StandardStreams.write(output.jsonText())
        case .sarif: StandardStreams.write(output.sarifText())
        case .github: StandardStreams.write(output.githubText())
        }
        if !unreadable.isEmpty { throw CommandFailure.unreadable }
        if results.contains(where: { !$0.isValid }) || warnings.hasErrors || output.failsStrict {
            throw CommandFailure.invalid
        }
    }
}
