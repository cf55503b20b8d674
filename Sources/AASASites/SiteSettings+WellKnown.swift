import AssociationKit

extension SiteSettings {
    /// The keys of `site.json` about the files under `/.well-known/` (docs/serving.md, "Every
    /// file a domain owes"): `"changePassword": "https://…"` and `"cacheControl": {"KIND": "…"}`.
    static let wellKnownKeys = ["changePassword", "cacheControl"]

    /// Reads `member` when it is one of `wellKnownKeys`; false for any other key.
    mutating func readWellKnownKey(_ member: JSONMember, path: String, site: String?) -> Bool {
        func problem(_ code: LoadProblem.Code, _ message: String, at location: SourceLocation) {
            var problem = LoadProblem(path, code, .error, message, site: site)
            (problem.lineNumber, problem.column) = (location.line, location.column)
            problems.append(problem)
        }
        switch member.key {
        case "changePassword":
            guard let text = member.value.stringValue, Self.isHTTPSURL(text) else {
                problem(
                    .siteChangePasswordInvalid,
                    "\"changePassword\" must be an absolute https:// URL (the page where a password is changed); "
                        + "/.well-known/change-password answers 404", at: member.value.location)
                return true
            }
            changePassword = text
        case "cacheControl":
            guard let entries = member.value.members else {
                problem(
                    .siteCacheControlInvalid,
                    "\"cacheControl\" is \(member.value.typeName); it must be an object such as "
                        + "{\"webauthn\": \"no-cache\"}", at: member.value.location)
                return true
            }
            let served = WellKnownFile.served.map(\.fileName) + [WellKnownFile.folderName]
            for entry in entries {
                guard let kind = FileCheck.Kind(rawValue: entry.key), served.contains(entry.key) else {
                    problem(
                        .siteCacheControlInvalid,
                        "\"\(entry.key)\" is not a kind of served file; cacheControl knows "
                            + served.joined(separator: ", "), at: entry.keyLocation)
                    continue
                }
                guard let value = entry.value.stringValue, !value.isEmpty,
                    value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F })
                else {
                    problem(
                        .siteCacheControlInvalid,
                        "the Cache-Control of \(entry.key) must be a non-empty string on one line, such as "
                            + "\"max-age=300\"", at: entry.value.location)
                    continue
                }
                cacheControl[kind] = value
            }
        default:
            return false
        }
        return true
    }

    /// An absolute https URL with a host, nothing a header line cannot carry.
    static func isHTTPSURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard lower.hasPrefix("https://"), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        let rest = text.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last.map { $0.prefix { $0 != ":" } } ?? ""
        return !host.isEmpty
    }
}
