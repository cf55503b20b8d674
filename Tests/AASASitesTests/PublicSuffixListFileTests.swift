import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASASites

/// The system's Public Suffix List as the server and `validate` read it, and what a missing or
/// empty one gives: a reason with the fix, never a guess.
@Suite("the Public Suffix List file")
struct PublicSuffixListFileTests {
    @Test("the system's list is read: thousands of rules, co.uk and github.io among them")
    func system() throws {
        let list = try PublicSuffixListFile.system.get()
        #expect(list.count > 5000)
        #expect(list.registrableDomain(of: "shop.example.co.uk") == "example.co.uk")
        #expect(list.registrableDomain(of: "github.io") == nil)
    }

    @Test("a missing, empty or non-regular list is unavailable, naming the path and the package")
    func unavailable() throws {
        let fixture = try TemporaryFolder()
        let empty = try fixture.write("empty.dat", "// only a comment\n\n")
        try fixture.folder("folder.dat")
        for (path, reason) in [
            (fixture.path("missing.dat"), "cannot be read: open"), (empty, "holds no rules"),
            (fixture.path("folder.dat"), "is not a regular file"),
        ] {
            guard case .failure(let unavailable) = PublicSuffixListFile.load(path: path) else {
                Issue.record("\(path) was read")
                continue
            }
            #expect(unavailable.reason.contains(path) && unavailable.reason.contains(reason), "\(unavailable.reason)")
            #expect(unavailable.reason.contains("apt-get install publicsuffix"))
        }
    }

    @Test("a webauthn file is checked with it through FileCheck, and its labels counted")
    func fileCheck() throws {
        let fixture = try TemporaryFolder()
        let origins = ["a.com", "b.co.uk", "c.github.io", "d.de", "e.fr", "www.a.com", "f.com"]
        let path = try fixture.write(
            "example.com/webauthn",
            #"{"origins": ["# + origins.map { "\"https://\($0)\"" }.joined(separator: ", ") + "]}")
        let check = FileCheck(
            path: path, kind: FileCheck.kind(ofFileAt: path), signing: FileCheckTests.signing)
        #expect(check.kind == .webauthn)
        #expect(!check.isValid)
        #expect(check.diagnostics.map(\.code) == [.webauthnTooManyLabels])
        #expect(check.diagnostics.first?.pointer == "/origins/6")
    }
}
