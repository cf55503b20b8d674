import Foundation
import Testing

@testable import AssociationKit

/// Google's Digital Asset Links compatibility tests (github.com/google/digitalassetlinks,
/// compatibility-tests/v1, Apache-2.0): hermetic groups of served files and Check or List
/// queries with the answer a conforming implementation gives. The groups that apply to a server
/// that validates and matches assetlinks.json are run against `AssetLinksValidator`: web
/// sources (2000: statement lists, 4000: query matching, 5000: includes, the smoke tests); not
/// the API's own query parsing (1000) nor statement lists inside APKs (3000).
/// The data is not kept in this repository: `AASA_DAL_COMPAT_TESTS` names a checkout's
/// compatibility-tests/v1 folder (docs/development.md, "Google's compatibility tests").
@Suite("Google's Digital Asset Links compatibility tests")
struct DigitalAssetLinksCompatibilityTests {
    static let folder = ProcessInfo.processInfo.environment["AASA_DAL_COMPAT_TESTS"].map {
        URL(fileURLWithPath: $0)
    }

    static var files: [URL] {
        guard let folder else { return [] }
        let names = [
            "2000-web-statement-list-parsing/2000-general.pb", "2000-web-statement-list-parsing/2100-relations.pb",
            "2000-web-statement-list-parsing/2200-web-targets.pb",
            "2000-web-statement-list-parsing/2300-android-targets.pb", "4000-query-matching/4000-list-source.pb",
            "4000-query-matching/4100-list-relation.pb", "4000-query-matching/4200-check-source.pb",
            "4000-query-matching/4300-check-relation.pb", "4000-query-matching/4400-check-target.pb",
            "5000-include-file-processing/5000-include-file-processing.pb", "smoketests.pb",
        ]
        return names.map { folder.appendingPathComponent($0) }
    }

    @Test(
        "every applicable group agrees with Google's expected answers",
        .enabled(if: folder != nil, "set AASA_DAL_COMPAT_TESTS to compatibility-tests/v1 of google/digitalassetlinks"))
    func groups() throws {
        var run = 0
        var failures: [String] = []
        for file in Self.files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (name, value) in try ProtoText.parse(text) where name == "test_group" {
                let evaluator = StatementListEvaluator(value)
                for outcome in evaluator.run() {
                    run += 1
                    if let failure = outcome { failures.append("\(file.lastPathComponent): \(failure)") }
                }
            }
        }
        #expect(run > 50, "only \(run) test cases read")
        #expect(failures.isEmpty, "\(failures.count) of \(run) disagree:\n\(failures.joined(separator: "\n"))")
    }
}
