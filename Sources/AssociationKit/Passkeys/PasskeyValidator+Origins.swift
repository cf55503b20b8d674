extension PasskeyValidator {
    mutating func readWebAuthn(
        _ root: JSONValue, suffixes: Result<PublicSuffixList, PublicSuffixList.Unavailable>
    ) -> WebAuthnFile? {
        guard members(of: root, file: WebAuthnFile.fileName, known: ["origins"]) != nil else { return nil }
        guard let origins = root["origins"] else {
            report(.webauthnNoOrigins, "webauthn needs \"origins\": [\"https://…\"], the related origins", at: root)
            return nil
        }
        guard let elements = origins.arrayValue else {
            report(
                .passkeyWrongType, "origins must be an array of origin strings, found \(origins.typeName)", at: origins)
            return nil
        }
        if elements.isEmpty {
            report(
                .webauthnNoOrigins, "origins is empty, so no other origin may use this domain's passkeys", at: origins)
        }
        var file = WebAuthnFile()
        var seen: Set<String> = []
        var hosts: [(host: String, value: JSONValue)] = []
        for element in elements {
            guard let text = element.stringValue else {
                report(.passkeyWrongType, "each origin must be a string, found \(element.typeName)", at: element)
                continue
            }
            guard let (origin, host) = readOrigin(text, at: element) else { continue }
            if !seen.insert(origin).inserted {
                report(.webauthnDuplicateOrigin, "\"\(text)\" is listed twice", at: element)
                continue
            }
            file.origins.append(Located(text, Origin(element)))
            hosts.append((host, element))
        }
        switch suffixes {
        case .success(let list): countLabels(hosts, list: list)
        case .failure(let unavailable) where !hosts.isEmpty:
            report(
                .publicSuffixListUnavailable,
                "the origins' registrable-domain labels were not counted (browsers honour \(WebAuthnFile.labelLimit)): "
                    + unavailable.reason,
                at: origins)
        case .failure: break
        }
        return file
    }

    /// The origin's serialization (`scheme://host[:port]`, lower-case, the default port left
    /// out) and its host, or nil after reporting why `text` is not a usable origin.
    mutating func readOrigin(_ text: String, at value: JSONValue) -> (origin: String, host: String)? {
        guard let parts = URLParts(text), let scheme = parts.scheme, !parts.host.isEmpty, parts.pathAndQuery.isEmpty,
            !text.contains("#"), !text.contains("@"),
            let host = parts.isIPLiteral ? parts.host.lowercased() : HostName.normalize(parts.host)
        else {
            report(
                .webauthnInvalidOrigin,
                "\"\(text)\" is not an origin: scheme://host[:port] with no path (not even /), query, fragment or "
                    + "user name, the host in ASCII (xn--)",
                at: value)
            return nil
        }
        guard scheme == "https" || (scheme == "http" && host == "localhost") else {
            report(
                .webauthnInsecureOrigin,
                "\"\(text)\" is not https; WebAuthn runs only in secure contexts (http only for localhost)", at: value)
            return nil
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = parts.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        let shownHost = parts.isIPLiteral ? "[\(host)]" : host
        return (scheme + "://" + shownHost + port, parts.isIPLiteral ? "" : host)
    }

    /// Browsers take origins in order and skip those whose label would be the sixth distinct
    /// one (WebAuthn Level 3, §5.11.1 "Validating Related Origins"); an origin with no
    /// registrable domain (an IP address, a public suffix) is skipped altogether.
    mutating func countLabels(_ hosts: [(host: String, value: JSONValue)], list: PublicSuffixList) {
        var labels: [String] = []
        for (host, value) in hosts where host != "localhost" {
            let isIPv4 = host.split(separator: ".").allSatisfy { $0.allSatisfy(\.isNumber) }
            guard !host.isEmpty, !isIPv4, let label = list.registrableLabel(of: host) else {
                report(
                    .webauthnNoRegistrableDomain,
                    "\(host.isEmpty || isIPv4 ? "an IP address" : "\"\(host)\" is a public suffix and") has no "
                        + "registrable domain, so browsers skip this origin",
                    at: value)
                continue
            }
            if labels.contains(label) { continue }
            guard labels.count < WebAuthnFile.labelLimit else {
                report(
                    .webauthnTooManyLabels,
                    "\"\(label)\" would be label \(labels.count + 1); browsers honour \(WebAuthnFile.labelLimit) "
                        + "(\(labels.joined(separator: ", "))) and skip this origin",
                    at: value)
                continue
            }
            labels.append(label)
        }
    }
}
