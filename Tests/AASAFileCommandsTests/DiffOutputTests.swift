import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASAFileCommands

/// What `diff` prints for two fixture files: the changes in meaning and each URL whose
/// decision changed, with the rule that decides it now or decided it before.
@Suite("diff's output")
struct DiffOutputTests {
    static func file(_ text: String) throws -> AssociationFile {
        try #require(
            AssociationFileValidator.validate(Array(text.utf8), signed: SignedFileContext(reader: .unavailable, now: 0))
                .file)
    }

    /// What `diff OLD NEW --url URL` compares, built as its `run` does.
    static func compare(_ old: String, _ new: String, url: String) throws -> ([MeaningChange], [DecisionChange]) {
        let (before, after) = (try file(old), try file(new))
        let (oldMatcher, newMatcher) = (AssociationMatcher(file: before), AssociationMatcher(file: after))
        let decisions = DecisionChange.between(
            url, oldMatcher.decide(try MatchURL(url), appID: SiteFixtures.appID()),
            newMatcher.decide(try MatchURL(url), appID: SiteFixtures.appID()), android: false)
        return (MeaningDiff.compare(before, after), decisions)
    }

    @Test("the same file: same meaning, nothing else")
    func same() throws {
        let file = SiteFixtures.oneAppAASA(path: "/buy/*")
        let (changes, decisions) = try Self.compare(file, file, url: "https://example.com/buy/1")
        #expect(changes.isEmpty && decisions.isEmpty)
        #expect(DiffOutput.text(changes, decisions) == "same meaning\n")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(DiffOutput.json(changes, decisions).utf8)) as? [String: Any])
        #expect(object["changed"] as? Bool == false)
    }

    @Test("a rule replaced: the rule's change, the URL that no longer opens the app and the rule that did")
    func changed() throws {
        let (changes, decisions) = try Self.compare(
            SiteFixtures.oneAppAASA(path: "/buy/*"), SiteFixtures.oneAppAASA(path: "/sell/*"),
            url: "https://example.com/buy/1")
        #expect(!changes.isEmpty)
        let decision = try #require(decisions.first)
        #expect(decisions.count == 1)
        #expect(decision.old == "match" && decision.new == "no_match")
        #expect(decision.rule == nil)
        #expect(decision.oldRule == #"details[0].components[0] {"/": "/buy/*"}"#)
        let text = DiffOutput.text(changes, decisions)
        #expect(
            text.contains(
                "https://example.com/buy/1 \(SiteFixtures.appID()): match → no_match "
                    + #"(was details[0].components[0] {"/": "/buy/*"}; now "#), "\(text)")
        let counted = changes.count == 1 ? "1 change in meaning" : "\(changes.count) changes in meaning"
        #expect(text.hasSuffix("\(counted); 1 URL decision changed\n"), "\(text)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(DiffOutput.json(changes, decisions).utf8)) as? [String: Any])
        #expect(object["changed"] as? Bool == true)
        #expect((object["changes"] as? [Any])?.count == changes.count)
        let written = try #require((object["decisions"] as? [[String: Any]])?.first)
        #expect(written["url"] as? String == "https://example.com/buy/1")
        #expect(written["old"] as? String == "match")
        #expect(written["oldRule"] as? String == decision.oldRule)
    }

    @Test("the same decision in both files is no change")
    func unchangedDecision() throws {
        let (_, decisions) = try Self.compare(
            SiteFixtures.oneAppAASA(path: "/buy/*"), SiteFixtures.oneAppAASA(path: "/sell/*"),
            url: "https://example.com/other")
        #expect(decisions.isEmpty)
    }
}
