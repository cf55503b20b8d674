import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASAFileCommands

/// What `match` prints for a URL, from the matcher's real decisions on a fixture file.
@Suite("match's output")
struct MatchOutputTests {
    static func decisions(_ url: String, file: String = SiteFixtures.oneAppAASA(path: "/buy/*")) throws
        -> [MatchDecision]
    {
        let report = AssociationFileValidator.validate(
            Array(file.utf8), signed: SignedFileContext(reader: .unavailable, now: 0))
        return AssociationMatcher(file: try #require(report.file)).decideAll(try MatchURL(url), domain: nil)
    }

    @Test("text: the URL, then per app the outcome, the app and why; the deciding rule beneath")
    func text() throws {
        let url = "https://example.com/buy/42"
        let lines = MatchOutput.text(url: url, try Self.decisions(url)).split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first == url)
        #expect(lines.dropFirst().first?.hasPrefix("  match     \(SiteFixtures.appID())  ") == true, "\(lines)")
        #expect(lines.last == "            rule: {\"/\": \"/buy/*\"}")
    }

    @Test("text: no rule decides, no rule line")
    func noMatch() throws {
        let url = "https://example.com/sell/1"
        let lines = MatchOutput.text(url: url, try Self.decisions(url)).split(separator: "\n")
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.last?.hasPrefix("  no_match  \(SiteFixtures.appID())  ") == true, "\(lines)")
    }

    @Test("text: a file with no apps says so, for Apple and for Android")
    func noApps() {
        #expect(MatchOutput.text(url: "u", []) == "u\n  (the file lists no app under applinks.details)\n")
        #expect(
            MatchOutput.text(url: "u", [], android: true)
                == "u\n  (no statement grants handle_all_urls to an android_app)\n")
    }

    @Test("JSON: one object with the URL, the domain and each app's decision and rule place")
    func json() throws {
        let url = "https://example.com/buy/42"
        let text = MatchOutput.json(url: url, domain: "example.com", try Self.decisions(url))
        #expect(text.hasSuffix("\n"))
        #expect(text.dropLast().contains("\n") == false, "one line: \(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["url"] as? String == url)
        #expect(object["domain"] as? String == "example.com")
        let result = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(result["appID"] as? String == SiteFixtures.appID())
        #expect(result["decision"] as? String == "match")
        #expect(result["detailsIndex"] as? Int == 0)
        #expect(result["componentIndex"] as? Int == 0)
    }
}
