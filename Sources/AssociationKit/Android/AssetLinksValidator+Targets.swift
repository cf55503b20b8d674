extension AssetLinksValidator {
    /// `relations` are the statement's: they decide what a web target's site may be.
    mutating func readTarget(_ value: JSONValue, relations: [String]) -> AssetLinksStatement.Target? {
        guard let members = value.members else {
            report(.assetLinksWrongType, "target must be an object, found \(value.typeName)", at: value)
            return nil
        }
        for member in members
        where !["namespace", "package_name", "sha256_cert_fingerprints", "site"].contains(member.key) {
            reportUnknown(member, known: ["namespace", "package_name", "sha256_cert_fingerprints", "site"])
        }
        switch value["namespace"]?.stringValue {
        case "android_app":
            let package = readPackageName(value["package_name"], in: value)
            return .androidApp(
                packageName: package ?? "", fingerprints: readFingerprints(value["sha256_cert_fingerprints"], in: value)
            )
        case "web":
            guard let site = value["site"] else {
                report(.invalidWebSite, "a web target needs \"site\": \"https://host\"", at: value)
                return nil
            }
            return readWebSite(site, relations: relations).map { .web(site: $0) }
        case let other?:
            report(
                .unknownNamespace, "namespace \"\(other)\" is neither android_app nor web",
                at: value["namespace"] ?? value)
            return nil
        case nil:
            report(.unknownNamespace, "a target needs \"namespace\": \"android_app\" (or \"web\")", at: value)
            return nil
        }
    }

    /// An application ID: two or more dot-separated segments, each a letter followed by
    /// letters, digits or underscores.
    mutating func readPackageName(_ value: JSONValue?, in target: JSONValue) -> String? {
        guard let value, let name = value.stringValue else {
            report(
                .invalidPackageName, "an android_app target needs \"package_name\": the app's applicationId",
                at: value ?? target)
            return nil
        }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            segments.count >= 2
            && segments.allSatisfy { segment in
                guard let first = segment.unicodeScalars.first,
                    ("a"..."z").contains(first) || ("A"..."Z").contains(first)
                else { return false }
                return segment.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                }
            }
        if !valid {
            report(
                .invalidPackageName,
                "\"\(name)\" is not an application ID (dot-separated segments like com.example.app, each starting "
                    + "with a letter)",
                at: value)
        }
        return name
    }

    /// Each entry exactly 32 upper-case hex bytes separated by colons (docs/association-files.md §3).
    mutating func readFingerprints(_ value: JSONValue?, in target: JSONValue) -> [String] {
        guard let value, let elements = value.arrayValue, !elements.isEmpty else {
            report(
                .missingFingerprints,
                "an android_app target needs \"sha256_cert_fingerprints\": [\"AB:CD:…\"] (32 bytes, from the signing "
                    + "certificate)",
                at: value ?? target)
            return []
        }
        var seen: Set<String> = []
        var fingerprints: [String] = []
        for element in elements {
            guard let fingerprint = element.stringValue else {
                report(
                    .assetLinksWrongType, "each fingerprint must be a string, found \(element.typeName)", at: element)
                continue
            }
            checkFingerprint(fingerprint, at: element)
            if let key = PublicSigningKey.matching(fingerprint) {
                report(
                    .publicSigningKey,
                    "this is the fingerprint of \(key.name); its private key is public, so anyone can sign an app with "
                        + "it and claim this site's links. Sign releases with a key of your own (or Play App Signing) "
                        + "and list that key's fingerprint",
                    at: element)
            }
            if !seen.insert(fingerprint.uppercased()).inserted {
                report(.duplicateFingerprint, "this fingerprint is listed twice", at: element)
            }
            fingerprints.append(fingerprint)
        }
        return fingerprints
    }

    mutating func checkFingerprint(_ fingerprint: String, at value: JSONValue) {
        let parts = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
        let isHexPair = { (part: Substring) in part.count == 2 && part.allSatisfy(\.isHexDigit) }
        if parts.allSatisfy(isHexPair) {
            if parts.count == 20 {
                report(
                    .sha1Fingerprint,
                    "this is a SHA-1 fingerprint (20 bytes); Android needs the SHA-256 one (32 bytes): keytool -list "
                        + "-v shows both",
                    at: value)
            } else if parts.count != 32 {
                report(.malformedFingerprint, "a SHA-256 fingerprint has 32 bytes; this has \(parts.count)", at: value)
            } else if fingerprint != fingerprint.uppercased() {
                report(
                    .lowercaseFingerprint, "fingerprints must be upper-case hex: write \"\(fingerprint.uppercased())\"",
                    at: value)
            }
            return
        }
        if fingerprint.count == 64 && fingerprint.allSatisfy(\.isHexDigit) {
            let grouped = stride(from: 0, to: 64, by: 2).map { offset -> String in
                let start = fingerprint.index(fingerprint.startIndex, offsetBy: offset)
                return String(fingerprint[start..<fingerprint.index(start, offsetBy: 2)])
            }.joined(separator: ":").uppercased()
            report(.malformedFingerprint, "bytes must be separated by colons: write \"\(grouped)\"", at: value)
        } else if fingerprint.count == 44 && fingerprint.hasSuffix("=") || fingerprint.contains("+")
            || fingerprint.contains("/")
        {
            report(
                .malformedFingerprint,
                "this looks like base64; Android needs colon-separated upper-case hex (keytool -list -v prints it)",
                at: value)
        } else {
            report(.malformedFingerprint, "\"\(fingerprint)\" is not 32 colon-separated hex bytes", at: value)
        }
    }

    /// `http[s]://host[:port]`, the whole site: no path, query or fragment (docs/association-files.md §3).
    /// Only a statement granting just `query_webapk` names a web app's manifest instead, an
    /// https URL with a path (web.dev, "Is your app installed? getInstalledRelatedApps()").
    mutating func readWebSite(_ value: JSONValue, relations: [String]) -> String? {
        guard let site = value.stringValue else {
            report(.assetLinksWrongType, "site must be a string, found \(value.typeName)", at: value)
            return nil
        }
        let namesManifest = !relations.isEmpty && relations.allSatisfy { $0 == AssetLinks.queryWebAPK }
        if namesManifest && Self.isManifestURL(site) { return site }
        // The scheme is case-insensitive (RFC 3986 §3.1): Google's compatibility tests accept HtTpS://.
        let scheme = site.prefix { $0 != ":" }.lowercased()
        let rest = scheme == "https" || scheme == "http" ? site.dropFirst(scheme.count).dropFirst(3) : nil
        guard let rest, site.dropFirst(scheme.count).hasPrefix("://"), !rest.isEmpty, !rest.contains("/"),
            !rest.contains("?"), !rest.contains("#"), Self.authorityProblem(rest) == nil
        else {
            let message =
                namesManifest
                ? "site of a \(AssetLinks.queryWebAPK) statement must be the https URL of the web app's manifest "
                    + "(https://host/manifest.json) or http(s)://host[:port]"
                : "site must be http(s)://host[:port] with no path (it names a whole site)"
                    + (relations.contains(AssetLinks.queryWebAPK)
                        ? "; only a statement granting just \(AssetLinks.queryWebAPK) may name a manifest URL" : "")
            report(.invalidWebSite, message, at: value)
            return nil
        }
        if scheme == "http" {
            report(
                .insecureWebSite,
                "Android verifies HTTPS sites only: \(site) is never verified; write https://\(rest)", at: value)
        }
        return site
    }

    /// `https://host[:port]/path[?query]`, printable ASCII, no fragment.
    static func isManifestURL(_ site: String) -> Bool {
        guard site.hasPrefix("https://") else { return false }
        let rest = site.utf8.dropFirst(8)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")), slash > rest.startIndex,
            rest.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") })
        else { return false }
        let authority = String(decoding: rest[..<slash], as: UTF8.self)
        return !authority.contains("?") && HostName.normalize(authority) != nil
    }
}
