import AssociationKit
import Foundation
import Testing

@testable import AASASites

/// Load problems are values rendered only at the edge; their codes are stable and listed in
/// the README ("Load problems").
@Suite("load problems")
struct LoadProblemTests {
    @Test(
        "rendered as validate prints them: PATH[:LINE:COLUMN]: SEVERITY: MESSAGE [CODE]",
        arguments: [
            (nil, nil, "sites/a/x: error: gone [SITE002]"), (3, 7, "sites/a/x:3:7: error: gone [SITE002]"),
            (3, nil, "sites/a/x:3:1: error: gone [SITE002]"),
        ] as [(Int?, Int?, String)])
    func rendered(_ line: Int?, _ column: Int?, _ expected: String) {
        var problem = LoadProblem("sites/a/x", .fileUnreadable, .error, "gone", site: "a")
        problem.lineNumber = line
        problem.column = column
        #expect(problem.rendered == expected)
    }

    @Test("codes are unique, SITE or CERT and three digits")
    func codes() {
        let codes = LoadProblem.Code.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.wholeMatch(of: /(SITE|CERT)[0-9]{3}/) != nil })
    }

    @Test("a list has errors only when one problem is an error")
    func hasErrors() {
        let warning = LoadProblem("x", .misnamedFile, .warning, "misnamed")
        let error = LoadProblem("x", .sitesUnreadable, .error, "unreadable")
        #expect(![LoadProblem]().hasErrors && ![warning].hasErrors && [warning, error].hasErrors)
    }

    @Test("every load-problem code is in docs/codes.md")
    func codesAreDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let table = try String(contentsOf: root.appendingPathComponent("docs/codes.md"), encoding: .utf8)
        for code in LoadProblem.Code.allCases {
            #expect(table.contains("| `\(code.rawValue)` |"), "docs/codes.md does not list \(code.rawValue)")
        }
    }
}
