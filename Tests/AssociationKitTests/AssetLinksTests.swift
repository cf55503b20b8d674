import Foundation
import Testing

@testable import AssociationKit

/// Every ADL code on a file that triggers it and on one that does not, Google's documented
/// shapes, and Android's dynamic rules.
@Suite("assetlinks.json")
struct AssetLinksTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let other = "B4:31:1F:FD:8A:3C:09:72:1E:6F:C5:2A:4B:77:D0:93:6E:15:02:C8:9A:41:7B:E3:5D:88:06:F1:2C:9E:4A:70"

    static func statement(
        relation: String = #"["delegate_permission/common.handle_all_urls"]"#, target: String? = nil, extra: String = ""
    ) -> String {
        let target =
            target
            ?? #"{"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["\#(fingerprint)"]}"#
        return #"{"relation": \#(relation), "target": \#(target)\#(extra)}"#
    }

    static func file(_ statements: String...) -> String { "[" + statements.joined(separator: ", ") + "]" }

    static let base = file(statement())

    static func app(package: String = "com.example.app", fingerprints: String) -> String {
        #"{"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": \#(fingerprints)}"#
    }

    static func rules(_ rules: String) -> String {
        #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [\#(rules)]}}"#
    }

    static let cases: [(DiagnosticCode, String, String)] = [
        (.assetLinksNotArray, #"{"relation": []}"#, base),
        (.malformedRelation, file(statement(relation: #"["delegate_permission/Common.Handle_All_Urls"]"#)), base),
        (.missingRelation, file(#"{"target": \#(app(fingerprints: "[\"\(fingerprint)\"]"))}"#), base),
        (.unknownRelation, file(statement(relation: #"["delegate_permission/common.handle_all_url"]"#)), base),
        (.missingTarget, file(#"{"relation": ["delegate_permission/common.handle_all_urls"]}"#), base),
        (
            .unknownNamespace, file(statement(target: #"{"namespace": "ios_app", "package_name": "com.example.app"}"#)),
            base
        ),
        (
            .invalidPackageName,
            file(statement(target: app(package: "com.example.1app", fingerprints: "[\"\(fingerprint)\"]"))), base
        ),
        (.missingFingerprints, file(statement(target: app(fingerprints: "[]"))), base),
        (.lowercaseFingerprint, file(statement(target: app(fingerprints: "[\"\(fingerprint.lowercased())\"]"))), base),
        (
            .sha1Fingerprint,
            file(
                statement(
                    target: app(fingerprints: #"["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42"]"#))),
            base
        ),
        (
            .malformedFingerprint,
            file(statement(target: app(fingerprints: #"["FG6D6YPzc6bnNDH1hUaHdPIDcFeKjHBuVUgIRUUcOmk="]"#))), base
        ),
        (
            .duplicateFingerprint,
            file(statement(target: app(fingerprints: "[\"\(fingerprint)\", \"\(fingerprint)\"]"))),
            file(statement(target: app(fingerprints: "[\"\(fingerprint)\", \"\(other)\"]")))
        ),
        (
            .invalidWebSite,
            file(
                statement(),
                statement(
                    relation: #"["delegate_permission/common.get_login_creds"]"#,
                    target: #"{"namespace": "web", "site": "https://example.com/login"}"#)),
            file(
                statement(),
                statement(
                    relation: #"["delegate_permission/common.get_login_creds"]"#,
                    target: #"{"namespace": "web", "site": "https://example.com"}"#))
        ),
        (
            .invalidInclude, file(statement(), #"{"include": "http://example.com/.well-known/more.json"}"#),
            file(statement(), #"{"include": "https://example.com/.well-known/more.json"}"#)
        ),
        (
            .malformedDynamicRules, file(statement(extra: rules(#"{"/": "/shop/*", "?": {"ref": 1}}"#))),
            file(statement(extra: rules(#"{"/": "/shop/*", "?": {"ref": "1"}}"#)))
        ),
        (
            .unknownAssetLinksKey,
            file(
                statement(
                    target:
                        #"{"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprint": ["\#(fingerprint)"], "sha256_cert_fingerprints": ["\#(fingerprint)"]}"#
                )), base
        ),
        (.assetLinksWrongType, file(statement(relation: #""delegate_permission/common.handle_all_urls""#)), base),
        (.noAppLinkStatement, file(statement(relation: #"["delegate_permission/common.get_login_creds"]"#)), base),
        (.publicSigningKey, file(statement(target: app(fingerprints: "[\"\(reactNativeDebugKey)\"]"))), base),
        (.ruleNeverMatches, file(statement(extra: rules(#"{"exclude": true}"#))), file(statement(extra: rules("")))),
        (
            .starStopsEarly, file(statement(extra: rules(#"{"/": "*/terms/*", "exclude": true}"#))),
            file(statement(extra: rules(#"{"/": "/terms/*", "exclude": true}"#)))
        ),
        (
            .android15Differs, file(statement(extra: rules(#"{"/": "/a?*b"}"#))),
            file(statement(extra: rules(#"{"/": "/a?*"}"#)))
        ),
        (
            .encodedRulePattern, file(statement(extra: rules(#"{"/": "/caf%C3%A9"}"#))),
            file(statement(extra: rules(#"{"/": "/café"}"#)))
        ),
        (
            .wildcardRequiresPart, file(statement(extra: rules(#"{"/": "/a", "?": {"dl": "*"}}"#))),
            file(statement(extra: rules(#"{"/": "/a", "?": {"dl": "?*"}}"#)))
        ),
        (
            .laterStatementIgnored, file(statement(), statement(extra: rules(#"{"/": "/a"}"#))),
            file(statement(), statement())
        ),
        (
            .includeWithStatementFields,
            file(
                statement(),
                #"{"include": "https://example.com/more.json", "target": {"namespace": "web", "site": "https://a.example"}}"#
            ),
            file(statement(), #"{"include": "https://example.com/more.json", "comment": "x"}"#)
        ),
        (
            .insecureWebSite,
            file(
                statement(),
                statement(
                    relation: #"["delegate_permission/common.get_login_creds"]"#,
                    target: #"{"namespace": "web", "site": "http://example.com"}"#)),
            file(
                statement(),
                statement(
                    relation: #"["delegate_permission/common.get_login_creds"]"#,
                    target: #"{"namespace": "web", "site": "HtTpS://example.com"}"#))
        ),
    ]

    /// The SHA-256 of React Native's template debug.keystore (docs/association-files.md).
    static let reactNativeDebugKey =
        "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"

    @Test("a publicly known key is named in any case and beside the app's own key; other keys are not")
    func publicSigningKeys() {
        let found = { (fingerprints: String) in
            AssetLinksValidator.validate(
                Array(Self.file(Self.statement(target: Self.app(fingerprints: fingerprints))).utf8)
            )
            .diagnostics.filter { $0.code == .publicSigningKey }
        }
        let beside = found("[\"\(Self.fingerprint)\", \"\(Self.reactNativeDebugKey)\"]")
        #expect(beside.count == 1)
        #expect(beside.first?.pointer == "/0/target/sha256_cert_fingerprints/1")
        #expect(beside.first?.message.contains("React Native") == true)
        #expect(found("[\"\(Self.reactNativeDebugKey.lowercased())\"]").count == 1)
        #expect(found(#"["5E:8F:16:06:2E:A3:CD:2C:4A:0D:54:78:76:BA:A6:F3:8C:AB:F6:25"]"#).count == 1)
        #expect(found("[\"\(Self.fingerprint)\", \"\(Self.other)\"]").isEmpty)
    }

    /// A web target's site for the given relations, and whether ADL013 is reported.
    static let webSites: [(relations: String, site: String, invalid: Bool)] = [
        (#"["delegate_permission/common.query_webapk"]"#, "https://example.com/manifest.json", false),
        (
            #"["delegate_permission/common.query_webapk"]"#, "https://example.com:8443/app/manifest.webmanifest?v=2",
            false
        ),
        (#"["delegate_permission/common.query_webapk"]"#, "https://example.com", false),
        (#"["delegate_permission/common.query_webapk"]"#, "http://example.com/manifest.json", true),
        (#"["delegate_permission/common.query_webapk"]"#, "https://example.com/manifest.json#x", true),
        (#"["delegate_permission/common.query_webapk"]"#, "https:///manifest.json", true),
        (#"["delegate_permission/common.query_webapk"]"#, "https://exa mple.com/manifest.json", true),
        (
            #"["delegate_permission/common.query_webapk", "delegate_permission/common.get_login_creds"]"#,
            "https://example.com/manifest.json", true
        ),
        (#"["delegate_permission/common.get_login_creds"]"#, "https://example.com/manifest.json", true),
        (#"["delegate_permission/common.get_login_creds"]"#, "https://example.com", false),
        (#"[]"#, "https://example.com/manifest.json", true),
    ]

    @Test("ADL013 by relation: a query_webapk statement may name its web app's manifest URL")
    func webSiteByRelation() {
        for (relations, site, invalid) in Self.webSites {
            // The target before the relation too: the order of keys does not matter.
            for text in [
                Self.file(
                    Self.statement(),
                    Self.statement(relation: relations, target: #"{"namespace": "web", "site": "\#(site)"}"#)),
                Self.file(
                    Self.statement(),
                    #"{"target": {"namespace": "web", "site": "\#(site)"}, "relation": \#(relations)}"#),
            ] {
                let codes = AssetLinksValidator.validate(Array(text.utf8)).diagnostics.map(\.code)
                #expect(codes.contains(.invalidWebSite) == invalid, "\(relations) \(site): \(codes)")
            }
        }
    }

    @Test("every ADL code is in this table")
    func everyCode() {
        let covered = Set(Self.cases.map(\.0))
        let missing = DiagnosticCode.allCases.filter { $0.rawValue.hasPrefix("ADL") && !covered.contains($0) }
        #expect(missing.isEmpty, "no case for \(missing.map(\.rawValue))")
    }

    @Test("each code is reported on its triggering file and not on the clean one")
    func bothWays() {
        for (code, triggering, clean) in Self.cases {
            let found = AssetLinksValidator.validate(Array(triggering.utf8)).diagnostics
            #expect(
                found.contains { $0.code == code && $0.severity == code.severity },
                "\(code.rawValue) not reported: \(found.map(\.messageWithPointer))")
            let cleanFound = AssetLinksValidator.validate(Array(clean.utf8)).diagnostics
            #expect(
                !cleanFound.contains { $0.code == code },
                "\(code.rawValue) reported on the clean file: \(cleanFound.map(\.messageWithPointer))")
        }
    }

    @Test("Google's documented shapes are valid: several fingerprints, web targets, includes")
    func googleExamples() {
        let documented = """
            [{
              "relation": ["delegate_permission/common.handle_all_urls"],
              "target": {
                "namespace": "android_app",
                "package_name": "com.example",
                "sha256_cert_fingerprints": ["\(Self.fingerprint)", "\(Self.other)"]
              }
            },
            {
              "relation": ["delegate_permission/common.get_login_creds"],
              "target": { "namespace": "web", "site": "https://signin.example.com" }
            },
            { "include": "https://example.com/includedstatements.json" }]
            """
        let report = AssetLinksValidator.validate(Array(documented.utf8))
        #expect(report.isValid, "\(report.diagnostics.map(\.messageWithPointer))")
        #expect(report.file?.statements.count == 3)
    }

    @Test("fix-it messages say what to write")
    func fixIts() throws {
        let noColons = Self.file(
            Self.statement(
                target: Self.app(fingerprints: "[\"\(Self.fingerprint.replacingOccurrences(of: ":", with: ""))\"]")))
        let message = try #require(
            AssetLinksValidator.validate(Array(noColons.utf8)).diagnostics.first { $0.code == .malformedFingerprint }?
                .message)
        #expect(message.contains(Self.fingerprint))
    }

    static func decide(_ file: String, _ url: String, package: String = "com.example.app") throws
        -> MatchDecision.Outcome
    {
        let parsed = try #require(AssetLinksValidator.validate(Array(file.utf8)).file)
        return AssetLinksMatcher(file: parsed).decide(try MatchURL(url), package: package, domain: "example.com")
            .outcome
    }

    @Test("Android decisions: the manifest's (unknown) without rules, first rule wins, order-free query items")
    func matching() throws {
        #expect(try Self.decide(Self.base, "https://example.com/anything") == .unknown)
        #expect(try Self.decide(Self.base, "https://example.com/anything", package: "com.other") == .noMatch)
        #expect(try Self.decide(Self.base, "https://evil.test/anything") == .noMatch)
        let withRules = Self.file(
            Self.statement(
                extra: Self.rules(
                    #"{"/": "/shop/private/*", "exclude": true}, {"/": "/shop/*", "?": {"ref": "?*", "id": "??"}}, {"\u0023": "app"}"#
                )))
        #expect(try Self.decide(withRules, "https://example.com/shop/1?id=42&ref=mail") == .match)
        #expect(try Self.decide(withRules, "https://example.com/shop/1?ref=mail&id=42&other=1") == .match)
        #expect(try Self.decide(withRules, "https://example.com/shop/1?ref=mail&id=4") == .noMatch)
        #expect(try Self.decide(withRules, "https://example.com/shop/private/x?id=42&ref=mail") == .exclude)
        #expect(try Self.decide(withRules, "https://example.com/elsewhere#app") == .match)
        #expect(try Self.decide(withRules, "https://example.com/elsewhere") == .noMatch)
        // No Apple-style slash normalization: /shop/* needs the slash.
        #expect(try Self.decide(withRules, "https://example.com/shop?id=42&ref=x") == .noMatch)
        // Malformed dynamic rules are discarded, so the manifest decides again.
        let malformed = Self.file(Self.statement(extra: Self.rules(#"{"/": "/shop/*", "exclude": "yes"}"#)))
        #expect(try Self.decide(malformed, "https://example.com/anything") == .unknown)
    }

    /// URL, then the decision, the deciding statement and rule index, and a part of the reason.
    static let decisions: [(String, MatchDecision.Outcome, Int?, Int?, String)] = [
        ("https://example.com/account/1", .exclude, 1, 0, "excludes the URL"),
        ("https://example.com/shop/1?id=7", .match, 1, 1, "is the first rule that matches"),
        ("https://example.com/shop/1", .noMatch, nil, nil, "no dynamic rule"),
        ("https://example.com/help#app", .match, 1, 2, "dynamic_app_link_components[2]"),
    ]

    @Test("each decision names its statement and rule; unknown names the statement the manifest decides for")
    func decidingRules() throws {
        // Statement 0 grants get_login_creds only; statement 1 has the rules.
        let rules = Self.rules(
            ##"{"/": "/account/*", "exclude": true}, {"/": "/shop/*", "?": {"id": "?*"}}, {"#": "app"}"##)
        let file = try #require(
            AssetLinksValidator.validate(
                Array(
                    Self.file(
                        Self.statement(relation: #"["delegate_permission/common.get_login_creds"]"#),
                        Self.statement(extra: rules)
                    ).utf8)
            ).file)
        let matcher = AssetLinksMatcher(file: file)
        for (url, outcome, statement, rule, reason) in Self.decisions {
            let decision = matcher.decide(try MatchURL(url), package: "com.example.app")
            #expect(decision.outcome == outcome, "\(url)")
            #expect(decision.detailsIndex == statement && decision.ruleIndex == rule, "\(url)")
            #expect(decision.reason.contains(reason), "\(url): \(decision.reason)")
            #expect((decision.rule != nil) == (rule != nil), "\(url)")
        }
        let unknown = try #require(AssetLinksValidator.validate(Array(Self.base.utf8)).file)
        let decision = AssetLinksMatcher(file: unknown).decide(
            try MatchURL("https://example.com/x"), package: "com.example.app")
        #expect(decision.outcome == .unknown && decision.detailsIndex == 0 && decision.rule == nil)
        #expect(
            decision.reason.contains(
                "statements[0] grants delegate_permission/common.handle_all_urls without dynamic rules"))
        #expect(decision.reason.contains("the app's manifest decides"))
    }
}
