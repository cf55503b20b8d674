import AASASites
import AssociationKit

/// What `match` prints for one URL.
enum MatchOutput {
    /// ```
    /// https://example.com/buy/42
    ///   match     ABCDE12345.com.example.app  details[0].components[1] is the first rule that matches
    ///             rule: {"/": "/buy/*"}
    /// ```
    /// `android`: the decisions are for an assetlinks.json, whose apps are its statements' packages.
    static func text(url: String, _ decisions: [MatchDecision], android: Bool = false) -> String {
        url + "\n" + lines(decisions, android: android, label: "", width: decisions.map(\.appID.count).max() ?? 0)
    }

    /// `match --sites`: both platforms' decisions, each line led by the platform; nil when the
    /// site has no file for that platform.
    /// ```
    /// https://example.com/account/1
    ///   apple    exclude   ABCDE12345.com.example.app  details[0].components[1] matches and excludes the URL …
    ///                      rule: {"/": "/account/*", "exclude": true}
    ///   android  unknown   com.example.app             statements[0] grants … without dynamic rules: the app's …
    /// ```
    /// `app`: `--app`, which a platform whose file does not list it answers with no decision.
    static func text(url: String, apple: [MatchDecision]?, android: [MatchDecision]?, app: String? = nil) -> String {
        let width = ((apple ?? []) + (android ?? [])).map(\.appID.count).max() ?? 0
        var out = url + "\n"
        for (label, decisions, file) in [
            ("apple", apple, SiteDirectory.appleFileName), ("android", android, SiteDirectory.androidFileName),
        ] {
            guard let decisions else {
                out += "  \(label.padding(to: 9))(the site has no \(file))\n"
                continue
            }
            if let app, decisions.isEmpty {
                out += "  \(label.padding(to: 9))(\(file) does not name \(app))\n"
                continue
            }
            out += lines(decisions, android: label == "android", label: label.padding(to: 9), width: width)
        }
        return out
    }

    /// One line per decision, with the deciding rule below it.
    static func lines(_ decisions: [MatchDecision], android: Bool, label: String, width: Int) -> String {
        var out = ""
        if decisions.isEmpty {
            out +=
                android
                ? "  \(label)(no statement grants handle_all_urls to an android_app)\n"
                : "  \(label)(the file lists no app under applinks.details)\n"
        }
        for decision in decisions {
            let outcome = decision.outcome.rawValue.padding(to: 9)
            out += "  \(label)\(outcome) \(decision.appID.padding(to: width))  \(decision.reason)\n"
            if let rule = decision.rule {
                out += "  " + String(repeating: " ", count: label.count + 10) + "rule: \(rule.compacted)\n"
            }
        }
        return out
    }

    /// Whether the URL opens an app as far as the files tell: no platform that has a file and
    /// a known answer keeps it on the web (`unknown` leaves it to the app's manifest), and some
    /// platform has a file.
    static func opens(apple: [MatchDecision]?, android: [MatchDecision]?) -> Bool {
        let answers = [apple, android].compactMap { $0 }.filter { !$0.isEmpty }
        return !answers.isEmpty && answers.allSatisfy { $0.contains { $0.outcome.mayOpen } }
    }

    /// `{"url":…, "domain":…, "results":[{"appID","decision","detailsIndex","componentIndex","reason"}]}`,
    /// one object per line.
    /// With a fallback.json, `"fallback":[{"client","kind","status","destination","ruleIndex","rule"}]` too.
    /// `match --sites` adds `"android"`: `[{"package","decision","statementIndex","ruleIndex","rule","reason"}]`,
    /// null when the site has no assetlinks.json (`android` is `.some(nil)`).
    static func json(
        url: String, domain: String?, _ decisions: [MatchDecision], android: [MatchDecision]?? = nil,
        fallback: [FallbackExplanation]? = nil
    ) -> String {
        struct Result: Encodable {
            var appID: String
            var decision: String
            var detailsIndex: Int?
            var componentIndex: Int?
            var ruleKind: String?
            var rule: String?
            var reason: String

            func encode(to encoder: any Encoder) throws {
                // Nulls are written out, so every result has the same keys.
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(appID, forKey: .appID)
                try container.encode(decision, forKey: .decision)
                try container.encode(detailsIndex, forKey: .detailsIndex)
                try container.encode(componentIndex, forKey: .componentIndex)
                try container.encode(ruleKind, forKey: .ruleKind)
                try container.encode(rule, forKey: .rule)
                try container.encode(reason, forKey: .reason)
            }

            enum CodingKeys: String, CodingKey {
                case appID, decision, detailsIndex, componentIndex, ruleKind, rule, reason
            }
        }
        struct Document: Encodable {
            var url: String
            var domain: String?
            var results: [Result]
            var android: [AndroidAnswer]??
            var fallback: [FallbackAnswer]?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(url, forKey: .url)
                try container.encode(domain, forKey: .domain)
                try container.encode(results, forKey: .results)
                if let android { try container.encode(android, forKey: .android) }
                if let fallback { try container.encode(fallback, forKey: .fallback) }
            }

            enum CodingKeys: String, CodingKey { case url, domain, results, android, fallback }
        }
        let results = decisions.map {
            Result(
                appID: $0.appID, decision: $0.outcome.rawValue, detailsIndex: $0.detailsIndex,
                componentIndex: $0.ruleIndex,
                ruleKind: $0.ruleKind?.label, rule: $0.rule?.compacted, reason: $0.reason)
        }
        let document = Document(
            url: url, domain: domain, results: results, android: android.map { $0.map { $0.map(AndroidAnswer.init) } },
            fallback: fallback?.map(FallbackAnswer.init))
        return JSONOutput.encode(document, pretty: false) + "\n"
    }
}

extension MatchOutput {
    /// One package's entry of `match --json`'s `android`: the decision and the deciding rule.
    struct AndroidAnswer: Encodable {
        var package: String
        var decision: String
        /// The statement that decided (`unknown`: the one without dynamic rules).
        var statementIndex: Int?
        /// The index of the deciding rule in its `dynamic_app_link_components`.
        var ruleIndex: Int?
        var rule: String?
        var reason: String

        init(_ decision: MatchDecision) {
            package = decision.appID
            self.decision = decision.outcome.rawValue
            statementIndex = decision.detailsIndex
            ruleIndex = decision.ruleIndex
            rule = decision.rule?.compacted
            reason = decision.reason
        }

        func encode(to encoder: any Encoder) throws {
            // Nulls are written out, so every answer has the same keys.
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(package, forKey: .package)
            try container.encode(decision, forKey: .decision)
            try container.encode(statementIndex, forKey: .statementIndex)
            try container.encode(ruleIndex, forKey: .ruleIndex)
            try container.encode(rule, forKey: .rule)
            try container.encode(reason, forKey: .reason)
        }

        enum CodingKeys: String, CodingKey { case package, decision, statementIndex, ruleIndex, rule, reason }
    }
}

extension String {
    package func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
