extension AssetLinksValidator {
    /// `relation_extensions` → `delegate_permission/common.handle_all_urls` →
    /// `dynamic_app_link_components` (Android 15; docs/association-files.md, "3. The Android file"). Any malformed rule makes Android
    /// discard every dynamic rule, so each problem here is an error.
    mutating func readExtensions(_ value: JSONValue) -> [DynamicAppLinkRule]? {
        guard let extensions = value.members else {
            report(.assetLinksWrongType, "relation_extensions must be an object, found \(value.typeName)", at: value)
            return nil
        }
        guard let handleAll = value[AssetLinks.handleAllURLs] else {
            for member in extensions { reportUnknown(member, known: [AssetLinks.handleAllURLs]) }
            return nil
        }
        guard let components = handleAll["dynamic_app_link_components"] else { return nil }
        guard let elements = components.arrayValue else {
            report(
                .malformedDynamicRules, "dynamic_app_link_components must be an array of rules; Android discards it",
                at: components)
            return nil
        }
        var rules: [DynamicAppLinkRule] = []
        var malformed = false
        for (index, element) in elements.enumerated() {
            guard let members = element.members else {
                report(
                    .malformedDynamicRules, "each dynamic rule must be an object; Android discards all dynamic rules",
                    at: element)
                malformed = true
                continue
            }
            var rule = DynamicAppLinkRule(index: index, sourceText: sourceText(of: element), origin: Origin(element))
            for member in members {
                let child = member.value
                switch member.key {
                case "/", "#":
                    guard let pattern = child.stringValue else {
                        report(
                            .malformedDynamicRules,
                            "\"\(member.key)\" must be a pattern string; Android discards all dynamic rules", at: child)
                        malformed = true
                        continue
                    }
                    if member.key == "/" { rule.path = pattern } else { rule.fragment = pattern }
                case "?":
                    guard let items = child.members, items.allSatisfy({ $0.value.stringValue != nil }) else {
                        report(
                            .malformedDynamicRules,
                            "\"?\" must be an object of item patterns (strings); Android discards all dynamic rules",
                            at: child)
                        malformed = true
                        continue
                    }
                    rule.query = items.compactMap { item in
                        item.value.stringValue.map {
                            QueryItemRule(name: item.key, pattern: Located($0, Origin(item.value)))
                        }
                    }
                case "exclude":
                    guard let flag = child.boolValue else {
                        report(
                            .malformedDynamicRules, "exclude must be true or false; Android discards all dynamic rules",
                            at: child)
                        malformed = true
                        continue
                    }
                    rule.exclude = flag
                case "comments":
                    // Google documents it and StatementService reads it as text (StatementParser.kt,
                    // lines 42 and 134 at 05f31ae); it plays no part in matching.
                    continue
                default:
                    report(
                        .malformedDynamicRules,
                        "unknown rule key \"\(member.key)\" (rules have /, ?, #, exclude and comments); Android discards all "
                            + "dynamic rules",
                        at: child)
                    malformed = true
                }
            }
            lint(rule, element)
            rules.append(rule)
        }
        return malformed ? nil : rules
    }
}
