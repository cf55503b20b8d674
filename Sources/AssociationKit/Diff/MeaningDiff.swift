/// What changed in meaning between two apple-app-site-association files, or two
/// assetlinks.json files: apps per service, each app's rules (added, removed, changed,
/// moved), defaults, substitution variables; for Android, statements, relations and
/// fingerprints. Values are compared in canonical form (`JSONValue.canonical`).
public enum MeaningDiff {
    /// A rule as one app sees it: its canonical form, its text as written and its place.
    struct WrittenRule {
        let canonical: String
        let written: String
        let place: String
    }

    public static func compare(_ old: AssociationFile, _ new: AssociationFile) -> [MeaningChange] {
        var changes: [MeaningChange] = []
        for (service, oldList, newList) in [
            ("webcredentials", old.webCredentials, new.webCredentials), ("appclips", old.appClips, new.appClips),
            ("activitycontinuation", old.activityContinuation, new.activityContinuation),
        ] {
            changes += appSets(service, oldList?.apps.map(\.value) ?? [], newList?.apps.map(\.value) ?? [])
        }
        let oldLinks = old.appLinks
        let newLinks = new.appLinks
        let oldApps = appIDs(oldLinks)
        let newApps = appIDs(newLinks)
        var linkChanges = appSets("applinks", oldApps, newApps)
        if canonical(oldLinks?.defaults?.sourceText) != canonical(newLinks?.defaults?.sourceText) {
            linkChanges.append(
                change(
                    "applinks", "defaults", old: oldLinks?.defaults?.sourceText.compacted,
                    new: newLinks?.defaults?.sourceText.compacted))
        }
        linkChanges += variables(oldLinks?.substitutionVariables ?? [], newLinks?.substitutionVariables ?? [])
        for app in newApps where oldApps.contains(app) {
            let scope = "applinks \(app)"
            let oldDefaults = entryDefaults(of: app, in: oldLinks)
            let newDefaults = entryDefaults(of: app, in: newLinks)
            if oldDefaults.map(\.canonical) != newDefaults.map(\.canonical) {
                linkChanges.append(
                    change(
                        scope, "defaults", old: oldDefaults.map(\.written).joined(separator: "; "),
                        new: newDefaults.map(\.written).joined(separator: "; ")))
            }
            linkChanges += sequence(scope, "rule", rules(of: app, in: oldLinks), rules(of: app, in: newLinks))
        }
        return linkChanges + changes
    }

    public static func compare(_ old: AssetLinks, _ new: AssetLinks) -> [MeaningChange] {
        var changes: [MeaningChange] = []
        let oldTargets = targets(old)
        let newTargets = targets(new)
        for key in Set(oldTargets.keys).union(newTargets.keys).sorted() {
            let scope = "android \(key)"
            switch (oldTargets[key], newTargets[key]) {
            case (nil, let added?):
                changes.append(
                    MeaningChange(scope, .added, "target", new: added.relations.sorted().joined(separator: ", ")))
            case (let removed?, nil):
                changes.append(
                    MeaningChange(scope, .removed, "target", old: removed.relations.sorted().joined(separator: ", ")))
            case (let before?, let after?):
                changes += sets(scope, "relation", before.relations, after.relations)
                changes += sets(scope, "fingerprint", before.fingerprints, after.fingerprints)
                if before.rules.map(\.canonical) != after.rules.map(\.canonical) {
                    changes += sequence(scope, "dynamic rule", before.rules, after.rules)
                }
            case (nil, nil):
                break
            }
        }
        changes += sets(
            "android", "include", old.statements.compactMap(\.include), new.statements.compactMap(\.include))
        return changes
    }

    // MARK: Apple

    static func appIDs(_ appLinks: AppLinks?) -> [String] {
        var seen: [String] = []
        for detail in appLinks?.details ?? [] {
            for id in detail.appIDs where !seen.contains(id.value) { seen.append(id.value) }
        }
        return seen
    }

    /// The rules Apple consults for `app`: every entry listing it, in order (components, or
    /// legacy paths when an entry has no components).
    static func rules(of app: String, in appLinks: AppLinks?) -> [WrittenRule] {
        (appLinks?.details ?? []).filter { $0.appIDs.contains { $0.value == app } }.flatMap { detail -> [WrittenRule] in
            if let components = detail.components {
                return components.map { component in
                    WrittenRule(
                        canonical: canonical(component.sourceText) ?? "", written: component.sourceText.compacted,
                        place: "details[\(detail.index)].components[\(component.index)]")
                }
            }
            return (detail.paths ?? []).map { path in
                WrittenRule(
                    canonical: JSONWriter.quoted(path.text), written: JSONWriter.quoted(path.text),
                    place: "details[\(detail.index)].paths[\(path.index)]")
            }
        }
    }

    static func entryDefaults(of app: String, in appLinks: AppLinks?) -> [WrittenRule] {
        (appLinks?.details ?? []).filter { $0.appIDs.contains { $0.value == app } }.compactMap { detail in
            detail.defaults.map {
                WrittenRule(
                    canonical: canonical($0.sourceText) ?? "", written: $0.sourceText.compacted,
                    place: "details[\(detail.index)].defaults")
            }
        }
    }

    static func variables(_ old: [SubstitutionVariable], _ new: [SubstitutionVariable]) -> [MeaningChange] {
        func values(_ variable: SubstitutionVariable) -> String {
            "[" + variable.values.map { JSONWriter.quoted($0.value) }.joined(separator: ", ") + "]"
        }
        var changes: [MeaningChange] = []
        for variable in new {
            guard let before = old.last(where: { $0.name == variable.name }) else {
                changes.append(MeaningChange("applinks", .added, "variable \(variable.name)", new: values(variable)))
                continue
            }
            if values(before) != values(variable) {
                changes.append(
                    MeaningChange(
                        "applinks", .changed, "variable \(variable.name)", old: values(before), new: values(variable)))
            }
        }
        for variable in old where !new.contains(where: { $0.name == variable.name }) {
            changes.append(MeaningChange("applinks", .removed, "variable \(variable.name)", old: values(variable)))
        }
        return changes
    }

    // MARK: Android

    struct Target {
        var relations: [String] = []
        var fingerprints: [String] = []
        var rules: [WrittenRule] = []
    }

    /// Statements grouped by target (`com.example.app`, or a web site), relations and
    /// fingerprints merged: what Android verifies.
    static func targets(_ file: AssetLinks) -> [String: Target] {
        var targets: [String: Target] = [:]
        for statement in file.statements {
            let key: String
            var fingerprints: [String] = []
            switch statement.target {
            case .androidApp(let package, let prints)?:
                key = package
                fingerprints = prints
            case .web(let site)?: key = site
            case nil: continue
            }
            var target = targets[key] ?? Target()
            target.relations += statement.relations.filter { !target.relations.contains($0) }
            target.fingerprints += fingerprints.map { $0.uppercased() }.filter { !target.fingerprints.contains($0) }
            target.rules += (statement.dynamicRules ?? []).map { rule in
                WrittenRule(
                    canonical: canonical(rule.sourceText) ?? "", written: rule.sourceText.compacted,
                    place: "statements[\(statement.index)].dynamic_app_link_components[\(rule.index)]")
            }
            targets[key] = target
        }
        return targets
    }

    // MARK: Comparing

    static func canonical(_ text: String?) -> String? {
        text.flatMap { JSONDocument.parse(Array($0.utf8)).root?.canonical }
    }

    static func change(_ scope: String, _ subject: String, old: String?, new: String?) -> MeaningChange {
        MeaningChange(scope, old == nil ? .added : new == nil ? .removed : .changed, subject, old: old, new: new)
    }

    static func appSets(_ service: String, _ old: [String], _ new: [String]) -> [MeaningChange] {
        sets(service, "app", old, new)
    }

    static func sets(_ scope: String, _ subject: String, _ old: [String], _ new: [String]) -> [MeaningChange] {
        new.filter { !old.contains($0) }.map { MeaningChange(scope, .added, subject, new: $0) }
            + old.filter { !new.contains($0) }.map { MeaningChange(scope, .removed, subject, old: $0) }
    }

    /// An ordered list of rules: what stays in order (the longest common subsequence) is no
    /// change; a rule on both sides but out of that order moved; an old and a new rule at
    /// the same position changed; the rest were added or removed. Order matters to Apple:
    /// the first matching rule decides.
    static func sequence(
        _ scope: String, _ subject: String, _ old: [WrittenRule], _ new: [WrittenRule]
    ) -> [MeaningChange] {
        let kept = commonSubsequence(old.map(\.canonical), new.map(\.canonical))
        var oldOnly = old.indices.filter { !kept.old.contains($0) }
        var newOnly = new.indices.filter { !kept.new.contains($0) }
        var changes: [MeaningChange] = []
        for index in newOnly {
            guard let match = oldOnly.first(where: { old[$0].canonical == new[index].canonical }) else { continue }
            changes.append(
                MeaningChange(
                    scope, .moved, subject, old: "\(old[match].place) \(old[match].written)", new: "\(new[index].place)"
                ))
            oldOnly.removeAll { $0 == match }
            newOnly.removeAll { $0 == index }
        }
        for index in newOnly {
            if let match = oldOnly.first(where: { $0 == index }) {
                changes.append(
                    MeaningChange(
                        scope, .changed, subject, old: "\(old[match].place) \(old[match].written)",
                        new: "\(new[index].place) \(new[index].written)"))
                oldOnly.removeAll { $0 == match }
            } else {
                changes.append(MeaningChange(scope, .added, subject, new: "\(new[index].place) \(new[index].written)"))
            }
        }
        changes += oldOnly.map { MeaningChange(scope, .removed, subject, old: "\(old[$0].place) \(old[$0].written)") }
        return changes
    }

    /// Indices of a longest common subsequence; past 4 million cells (thousands of rules on
    /// each side) it keeps only a common prefix and suffix, so the diff stays fast.
    static func commonSubsequence(_ old: [String], _ new: [String]) -> (old: Set<Int>, new: Set<Int>) {
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix
            && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        { suffix += 1 }
        var keptOld = Set(0..<prefix).union((old.count - suffix)..<old.count)
        var keptNew = Set(0..<prefix).union((new.count - suffix)..<new.count)
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        guard !a.isEmpty, !b.isEmpty, a.count * b.count <= 4_000_000 else { return (keptOld, keptNew) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                keptOld.insert(prefix + i)
                keptNew.insert(prefix + j)
                (i, j) = (i + 1, j + 1)
            } else if table[i + 1][j] >= table[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return (keptOld, keptNew)
    }
}
