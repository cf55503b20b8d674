import AASASites
import AssociationKit
import Foundation

extension MatchCommand {
    /// The `fallback.json` beside the matched file, compiled with the folder's files as the
    /// server compiles it, or nil when there is none or it cannot be used (its diagnostics go
    /// to stderr).
    func fallbackPlan(beside path: String) -> FallbackPlan? {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        let fallbackPath = (folder as NSString).appendingPathComponent(FallbackFile.fileName)
        guard FileManager.default.fileExists(atPath: fallbackPath) else { return nil }
        let signing = SignedFileContext.command(domain: domain)
        let check = FileCheck(path: fallbackPath, kind: .fallback, signing: signing)
        StandardStreams.writeError(
            DiagnosticLines.render(check.diagnostics, path: fallbackPath, omitted: check.omitted))
        guard let file = check.fallbackFile else { return nil }
        let siblings =
            (try? SiteFolder(path: folder)).map { FileCheck.siblings(in: $0, shownAs: folder, signing: signing) }
            ?? FileCheck.Siblings()
        return FallbackPlan(file: file, apple: siblings.apple, android: siblings.android)
    }
}

extension MatchOutput {
    /// ```
    ///   without the app (fallback.json):
    ///     desktop  302 to https://www.example.com/buy/42
    ///     ios      200 App Store page with the Smart App Banner (web: https://www.example.com/buy/42)
    /// ```
    static func fallbackText(_ explanations: [FallbackExplanation]) -> String {
        var out = "  without the app (fallback.json):\n"
        for explanation in explanations {
            out += "    \(explanation.client.rawValue.padding(to: 14)) \(explanation.summary)\n"
        }
        return out
    }

    /// One entry of `match --json`'s `fallback`: what one kind of client without the app gets.
    struct FallbackAnswer: Encodable {
        var client: String
        var kind: String
        var status: Int
        var destination: String
        var ruleIndex: Int?
        var rule: String?
        /// The file that decided between a page and the web for a phone (`FallbackEvidence`).
        var evidence: String?

        init(_ explanation: FallbackExplanation) {
            client = explanation.client.rawValue
            kind = explanation.kind.rawValue
            status = explanation.status
            destination = explanation.destination
            ruleIndex = explanation.ruleIndex
            rule = explanation.rule?.compacted
            evidence = explanation.evidence?.rawValue
        }

        func encode(to encoder: any Encoder) throws {
            // Nulls are written out, so every answer has the same keys.
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(client, forKey: .client)
            try container.encode(kind, forKey: .kind)
            try container.encode(status, forKey: .status)
            try container.encode(destination, forKey: .destination)
            try container.encode(ruleIndex, forKey: .ruleIndex)
            try container.encode(rule, forKey: .rule)
            try container.encode(evidence, forKey: .evidence)
        }

        enum CodingKeys: String, CodingKey { case client, kind, status, destination, ruleIndex, rule, evidence }
    }
}
