extension AssociationFileValidator {
    /// Rules are tried in order and the first match wins (A-COMP, A-ARCH-UL), so a rule that
    /// an earlier one covers never decides anything; an exclusion there never excludes
    /// (OBSERVED: `/a/*` then exclude `/a/private/*` lets `/a/private/x` match, spec §6).
    mutating func checkReachability(_ rules: [EffectiveRule]) {
        guard rules.count > 1 else { return }
        for later in 1..<rules.count {
            guard let earlier = (0..<later).first(where: { PatternCoverage.covers(rules[$0], rules[later]) }) else { continue }
            let name = rules[later].kind == .component ? "components" : "paths"
            let shadow = "\(name)[\(earlier)] \(rules[earlier].sourceText.compacted) already matches every URL this rule would"
            if rules[later].exclude && !rules[earlier].exclude {
                report(.unreachableExclusion, "this exclusion never applies: \(shadow), and the first match wins. Move it before \(name)[\(earlier)]", at: rules[later].origin)
            } else {
                report(.unreachableComponent, "this rule is never reached: \(shadow). Remove it or move it earlier", at: rules[later].origin)
            }
        }
    }
}

extension String {
    /// Source text folded onto one line, for quoting a rule in a message.
    var compacted: String {
        split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingSpaces }.joined(separator: " ")
    }

    var trimmingSpaces: Substring {
        let trimmedFront = drop(while: { $0 == " " || $0 == "\t" })
        var result = Substring(trimmedFront)
        while result.last == " " || result.last == "\t" { result.removeLast() }
        return result
    }
}

extension Substring {
    var trimmingSpaces: Substring { String(self).trimmingSpaces }
}
