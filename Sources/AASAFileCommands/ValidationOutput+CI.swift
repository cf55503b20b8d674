import AASASites
import AASASystem
import AssociationKit
import Foundation

/// `validate --format sarif|github`: the same findings in the forms CI systems read.
extension ValidationOutput {
    /// The findings to report, in file order per file: infos only with `--verbose`, as in text.
    private var reported: [(path: String, diagnostic: Diagnostic)] {
        results.filter { $0.readError == nil }.flatMap { result in
            result.diagnostics.filter { $0.isShown(withNotes: verbose) }.map { (result.path, $0) }
        }
    }

    /// One SARIF 2.1.0 log (OASIS, errata 01): a rule per code reported, a result per
    /// diagnostic with its region; unreadable paths and folder warnings are notifications.
    func sarifText() -> String {
        let found = reported
        var codes: [DiagnosticCode] = []
        for (_, diagnostic) in found where !codes.contains(diagnostic.code) { codes.append(diagnostic.code) }
        let rules = codes.map { code in
            SARIF.Rule(
                id: code.rawValue, shortDescription: .init(text: code.summary),
                help: .init(text: "\(code.summary) The message of each result says how to fix it."),
                defaultConfiguration: .init(level: SARIF.level(reportedSeverity(code.severity))))
        }
        let findings = found.map { path, diagnostic in
            SARIF.Result(
                ruleId: diagnostic.code.rawValue, ruleIndex: codes.firstIndex(of: diagnostic.code) ?? 0,
                level: SARIF.level(reportedSeverity(diagnostic.severity)),
                message: .init(text: diagnostic.messageWithPointer),
                locations: [
                    .init(
                        physicalLocation: .init(
                            artifactLocation: .init(uri: SARIF.uri(path)),
                            region: .init(startLine: diagnostic.location.line, startColumn: diagnostic.location.column))
                    )
                ])
        }
        var notifications = unreadable.map {
            SARIF.Notification(level: "error", message: .init(text: "\($0.path): \($0.reason)"))
        }
        notifications += warnings.map {
            SARIF.Notification(level: strict ? "error" : "warning", message: .init(text: $0.rendered))
        }
        notifications += filesWithOmitted.map { result in
            SARIF.Notification(
                level: "note", message: .init(text: "\(result.path): \(DiagnosticLines.summary(of: result.omitted))"))
        }
        let log = SARIF.Log(
            runs: [
                .init(
                    tool: .init(driver: .init(name: "aasa-server", version: Version.current, rules: rules)),
                    invocations: [
                        .init(executionSuccessful: unreadable.isEmpty, toolExecutionNotifications: notifications)
                    ],
                    results: findings)
            ])
        return JSONOutput.encode(log) + "\n"
    }

    /// GitHub Actions workflow commands, one per finding
    /// (`::error file=PATH,line=L,col=C,title=CODE::MESSAGE`), then the summary line.
    func githubText() -> String {
        var out = ""
        for (path, diagnostic) in reported {
            let command =
                switch reportedSeverity(diagnostic.severity) {
                case .error: "error"
                case .warning: "warning"
                case .info: "notice"
                }
            out +=
                "::\(command) file=\(Self.property(path)),"
                + "line=\(diagnostic.location.line),col=\(diagnostic.location.column),"
                + "title=\(Self.property(diagnostic.code.rawValue))::\(Self.data(diagnostic.messageWithPointer))\n"
        }
        for result in filesWithOmitted {
            out +=
                "::notice file=\(Self.property(result.path))::"
                + "\(Self.data(DiagnosticLines.summary(of: result.omitted)))\n"
        }
        for warning in warnings {
            out +=
                "::\(strict ? "error" : "warning") file=\(Self.property(warning.path))::\(Self.data(warning.message))\n"
        }
        for (path, reason) in unreadable { out += "::error file=\(Self.property(path))::\(Self.data(reason))\n" }
        return out + summaryLine
    }

    /// The files whose diagnostics past the limit were counted, not listed.
    private var filesWithOmitted: [FileCheck] {
        results.filter { $0.omitted.count > 0 }
    }

    /// A workflow command's message: `%`, CR and LF escaped (GitHub's toolkit, `escapeData`).
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: also `:` and `,`, which end it (GitHub's toolkit, `escapeProperty`).
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

/// The parts of SARIF 2.1.0 that `validate` writes (docs.oasis-open.org/sarif/sarif/v2.1.0).
enum SARIF {
    struct Log: Encodable {
        var schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]

        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version
            case runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var invocations: [Invocation]
        var results: [Result]
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name: String
        var version: String
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var shortDescription: Text
        var help: Text
        var defaultConfiguration: Configuration
    }

    struct Configuration: Encodable {
        var level: String
    }

    struct Text: Encodable {
        var text: String
    }

    struct Invocation: Encodable {
        var executionSuccessful: Bool
        var toolExecutionNotifications: [Notification]
    }

    struct Notification: Encodable {
        var level: String
        var message: Text
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    struct ArtifactLocation: Encodable {
        var uri: String
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// The path as given, relative staying relative, as a URI reference (RFC 3986 §4.1):
    /// characters a path may not hold are percent-encoded.
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
