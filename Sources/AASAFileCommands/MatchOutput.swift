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
        var out = url + "\n"
        if decisions.isEmpty {
            out +=
                android
                ? "  (no statement grants handle_all_urls to an android_app)\n"
                : "  (the file lists no app under applinks.details)\n"
        }
        let width = decisions.map(\.appID.count).max() ?? 0
        for decision in decisions {
            let outcome = decision.outcome.rawValue.padding(to: 9)
            out += "  \(outcome) \(decision.appID.padding(to: width))  \(decision.reason)\n"
            if let rule = decision.rule {
                out += "  " + String(repeating: " ", count: 10) + "rule: \(rule.compacted)\n"
            }
        }
        return out
    }

    /// `{"url":…, "domain":…, "results":[{"appID","decision","detailsIndex","componentIndex","reason"}]}`,
    /// one object per line.
    /// With a fallback.json, `"fallback":[{"client","kind","status","destination","ruleIndex","rule"}]` too.
    static func json(
        url: String, domain: String?, _ decisions: [MatchDecision], fallback: [FallbackExplanation]? = nil
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
            var fallback: [FallbackAnswer]?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(url, forKey: .url)
                try container.encode(domain, forKey: .domain)
                try container.encode(results, forKey: .results)
                if let fallback { try container.encode(fallback, forKey: .fallback) }
            }

            enum CodingKeys: String, CodingKey { case url, domain, results, fallback }
        }
        let results = decisions.map {
            Result(
                appID: $0.appID, decision: $0.outcome.rawValue, detailsIndex: $0.detailsIndex,
                componentIndex: $0.ruleIndex,
                ruleKind: $0.ruleKind?.label, rule: $0.rule?.compacted, reason: $0.reason)
        }
        let document = Document(
            url: url, domain: domain, results: results, fallback: fallback?.map(FallbackAnswer.init))
        return JSONOutput.encode(document, pretty: false) + "\n"
    }
}

extension String {
    package func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
