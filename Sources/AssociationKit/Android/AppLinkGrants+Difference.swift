extension AppLinkGrants {
    /// How `other` differs from these grants, one line per (package, fingerprint): granted by
    /// one side only, or with other dynamic rules. `mine` and `theirs` name the two sides
    /// (`probe --google`: the origin's file and Google's view). Empty when they mean the same.
    public func differences(from other: AppLinkGrants, mine: String, theirs: String) -> [String] {
        func keyed(_ grants: Set<Grant>) -> [String: [String: String?]] {
            grants.reduce(into: [:]) { $0[$1.package, default: [:]][$1.fingerprint] = $1.rules }
        }
        let (here, there) = (keyed(grants), keyed(other.grants))
        var lines: [String] = []
        for package in Set(here.keys).union(there.keys).sorted() {
            let (ours, theirsByPrint) = (here[package] ?? [:], there[package] ?? [:])
            for fingerprint in Set(ours.keys).union(theirsByPrint.keys).sorted() {
                switch (ours[fingerprint], theirsByPrint[fingerprint]) {
                case (.some, nil): lines.append("\(package) \(fingerprint): in \(mine) only")
                case (nil, .some): lines.append("\(package) \(fingerprint): in \(theirs) only")
                case (.some(let left), .some(let right)) where left != right:
                    lines.append(
                        "\(package) \(fingerprint): other dynamic rules (\(mine): \(left ?? "none"); "
                            + "\(theirs): \(right ?? "none"))")
                default: break
                }
            }
        }
        return lines
    }

    /// The grants written as an assetlinks.json (one statement per package and rules, sorted),
    /// so that a cache's view can be matched as the origin's file is (`AssetLinksMatcher`).
    public var assetLinks: [UInt8] {
        var statements: [(package: String, rules: String?, fingerprints: [String])] = []
        for grant in grants.sorted() {
            if let index = statements.firstIndex(where: { $0.package == grant.package && $0.rules == grant.rules }) {
                statements[index].fingerprints.append(grant.fingerprint)
            } else {
                statements.append((grant.package, grant.rules, [grant.fingerprint]))
            }
        }
        let relation = JSONWriter.quoted(AssetLinks.handleAllURLs)
        let written = statements.map { statement in
            // The rules are canonical JSON already (`Grant.rules`).
            let rules = statement.rules.map {
                ", \"relation_extensions\": {\(relation): {\"dynamic_app_link_components\": \($0)}}"
            }
            let prints = statement.fingerprints.map { JSONWriter.quoted($0) }.joined(separator: ", ")
            return "{\"relation\": [\(relation)]\(rules ?? ""), \"target\": {\"namespace\": \"android_app\", "
                + "\"package_name\": \(JSONWriter.quoted(statement.package)), \"sha256_cert_fingerprints\": [\(prints)]}}"
        }
        return Array(("[" + written.joined(separator: ", ") + "]").utf8)
    }
}
