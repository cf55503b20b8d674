import AssociationKit
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@testable import AASASites

/// A file of a site folder read and checked: every outcome is a typed problem with its code,
/// severity, site and position, never text to parse back (docs/serving.md, "Reading a site's files").
@Suite("file checks: typed problems")
struct FileCheckTests {
    static let good =
        SiteFixtures.oneAppAASA(path: "/a/*")
    /// Valid, with two warnings: legacy `paths` (AASA104) with `appIDs` (AASA107).
    static let legacy = SiteFixtures.oneAppAASA(paths: "/a/*")
    static let signing = SignedFileContext(reader: .unavailable, now: 0)

    @Test(
        "what a file holds decides its problems: codes, severities and positions",
        arguments: [
            // (content of apple-app-site-association or nil when absent, expected (code, severity, line, column))
            (good, [(String, Severity, Int?, Int?)]()),
            (legacy, [("AASA104", .warning, 1, 14), ("AASA107", .warning, 1, 27)]),
            (#"{"applinks": {"details": [],}}"#, [("AASA101", .warning, 1, 14), ("JSON003", .error, 1, 28)]),
            ("", [("JSON013", .error, 1, 1)]),
            ("[]", [("AASA002", .error, 1, 1)]),
            (nil, [("SITE002", .error, nil, nil)]),
        ] as [(String?, [(String, Severity, Int?, Int?)])])
    func problems(_ content: String?, _ expected: [(String, Severity, Int?, Int?)]) throws {
        let fixture = try TemporaryFolder("aasa-sites")
        try fixture.folder("sites/example.com")
        if let content { try fixture.write("sites/example.com/apple-app-site-association", content) }
        let path = fixture.path("sites/example.com/apple-app-site-association")
        let check = FileCheck(path: path, kind: .apple, site: "example.com", signing: Self.signing)
        let problems = check.problems
        #expect(problems.map(\.code) == expected.map(\.0), "\(problems.map(\.rendered))")
        #expect(problems.map(\.severity) == expected.map(\.1))
        #expect(problems.map(\.lineNumber) == expected.map(\.2))
        #expect(problems.map(\.column) == expected.map(\.3))
        #expect(problems.allSatisfy { $0.site == "example.com" && $0.path == path })
        // Valid, and so served, exactly when no problem is an error.
        let valid = !expected.contains { $0.1 == .error }
        #expect(check.isValid == valid)
        #expect((check.bytes != nil) == valid)
    }

    @Test("a folder or a FIFO in place of the file is not read: SITE002, not a regular file")
    func notRegular() throws {
        let fixture = try TemporaryFolder("aasa-sites")
        try fixture.folder("sites/a.example/apple-app-site-association")
        try fixture.folder("sites/b.example")
        #expect(mkfifo(fixture.path("sites/b.example/apple-app-site-association"), 0o644) == 0)
        for site in ["a.example", "b.example"] {
            let check = FileCheck(
                path: fixture.path("sites/\(site)/apple-app-site-association"), kind: .apple, site: site,
                signing: Self.signing)
            #expect(check.problems.map(\.code) == [LoadProblem.Code.fileUnreadable.rawValue])
            #expect(check.readError == "not a regular file")
        }
    }

    @Test("a file past twice Apple's limit is not read at all, and is AASA001")
    func tooLarge() throws {
        let fixture = try TemporaryFolder("aasa-sites")
        let size = FileCheck.readLimit + 10
        let path = try fixture.write(
            "sites/example.com/apple-app-site-association", String(repeating: " ", count: size))
        let check = FileCheck(path: path, kind: .apple, site: "example.com", signing: Self.signing)
        #expect(check.problems.map(\.code) == ["AASA001"])
        #expect(check.byteCount == size && check.bytes == nil)
    }

    @Test(
        "a file's kind: by its name, else by its first character",
        arguments: [
            ("x/apple-app-site-association", "[]", FileCheck.Kind.apple), ("x/assetlinks.json", "{}", .android),
            ("x/fallback.json", "{}", .fallback), ("x/expectations.json", "{}", .expectations),
            ("x/mine.json", " \n[", .android), ("x/mine.json", "{", .apple), ("x/mine.json", "", .apple),
        ])
    func kind(_ path: String, _ content: String, _ expected: FileCheck.Kind) {
        #expect(FileCheck.kind(ofFileAt: path, bytes: Array(content.utf8)) == expected)
    }
}
