import AASASites
import AssociationKit
import Foundation

/// One file read for `match`: Apple's matcher or Android's, by the file's name or content.
/// Its diagnostics go to stderr; matching goes on as the platform would even for a file with
/// warnings or errors, and only a file that cannot be read at all is refused (exit 2).
enum MatchDecider {
    case apple(AssociationMatcher)
    case android(AssetLinksMatcher)

    init(path: String, domain: String?) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            StandardStreams.writeError("\(path): error: cannot read the file\n")
            throw CommandFailure.unreadable
        }
        let bytes = [UInt8](data)
        if FileCheck.kind(ofFileAt: path, bytes: bytes) == .android {
            let report = AssetLinksValidator.validate(bytes)
            self = .android(
                AssetLinksMatcher(
                    file: try Self.readable(
                        report.file, report.diagnostics, report.omitted, path, "a statement list Android")))
        } else {
            // A signed file matches as its JSON content does; its findings go to stderr.
            let report = AssociationFileValidator.validate(bytes, signed: .command(domain: domain))
            self = .apple(
                AssociationMatcher(
                    file: try Self.readable(
                        report.file, report.diagnostics, report.omitted, path, "an association file Apple")))
        }
    }

    var isAndroid: Bool {
        if case .android = self { true } else { false }
    }

    /// Whether the file names the app (Apple) or package (Android).
    func lists(_ app: String) -> Bool {
        switch self {
        case .apple(let matcher): matcher.appIDs.contains(app)
        case .android(let matcher): matcher.packages.contains(app)
        }
    }

    func decideAll(_ url: MatchURL, _ domain: String?) -> [MatchDecision] {
        switch self {
        case .apple(let matcher): matcher.decideAll(url, domain: domain)
        case .android(let matcher): matcher.decideAll(url, domain: domain)
        }
    }

    func decide(_ url: MatchURL, _ app: String, _ domain: String?) -> MatchDecision {
        switch self {
        case .apple(let matcher): matcher.decide(url, appID: app, domain: domain)
        case .android(let matcher): matcher.decide(url, package: app, domain: domain)
        }
    }

    /// Prints the file's diagnostics to stderr and returns what was read, or refuses a file
    /// that could not be read at all.
    static func readable<File>(
        _ file: File?, _ diagnostics: [Diagnostic], _ omitted: OmittedDiagnostics, _ path: String, _ what: String
    ) throws -> File {
        StandardStreams.writeError(DiagnosticLines.render(diagnostics, path: path, omitted: omitted))
        guard let file else {
            StandardStreams.writeError("\(path): error: not \(what) could read; nothing to match\n")
            throw CommandFailure.unreadable
        }
        return file
    }
}
