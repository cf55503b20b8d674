import AssociationKit

/// A site folder's `site.json`, `{"aliases": ["go.example.com"]}`: further names served
/// exactly as the folder's own, for deploys that cannot carry symbolic links (ConfigMaps, CI
/// artifact stores; docs/sites.md, "Sites layout"). Never served. What is wrong with it is a
/// `LoadProblem` (`SITE012`…`SITE017`); the names that are hosts are kept even then.
public struct SiteSettings: Sendable, Equatable {
    public static let fileName = "site.json"
    /// The largest `site.json` read: a list of names, not a site's content.
    public static let readLimit = 1 << 20

    /// The aliases as site keys (`HostName.siteKey`), in the file's order, without repeats.
    public var aliases: [String] = []
    /// Where each alias was named (1-based line and column), for the collisions found later.
    public var locations: [String: SourceLocation] = [:]
    public var problems: [LoadProblem] = []
    /// Where `/.well-known/change-password` redirects (`SiteSettings+WellKnown.swift`).
    public var changePassword: String?
    /// `Cache-Control` by kind, over each kind's own policy (`SiteSettings+WellKnown.swift`).
    public var cacheControl: [FileCheck.Kind: String] = [:]

    public init() {}

    /// Reads `bytes`, the file shown as `path`, of the site `site`.
    public init(_ bytes: [UInt8], path: String, site: String?) {
        let document = JSONDocument.parse(bytes)
        func problem(_ code: LoadProblem.Code, _ severity: Severity, _ message: String, at location: SourceLocation) {
            var problem = LoadProblem(path, code, severity, message, site: site)
            (problem.lineNumber, problem.column) = (location.line, location.column)
            problems.append(problem)
        }
        guard let root = document.root else {
            let failure = document.diagnostics.first { $0.severity == .error } ?? document.diagnostics.first
            problem(
                .siteFileNotJSON, .error, "not JSON: \(failure?.message ?? "unreadable")",
                at: failure?.location ?? .start)
            return
        }
        guard case .object(let members) = root.kind else {
            problem(
                .siteFileNotJSON, .error, "\(root.typeName) where an object is expected: {\"aliases\": [\"NAME\"]}",
                at: root.location)
            return
        }
        for member in members {
            guard member.key == "aliases" else {
                if readWellKnownKey(member, path: path, site: site) { continue }
                problem(
                    .siteFileUnknownKey, .warning,
                    "unknown key \"\(member.key)\" (ignored); site.json knows \"aliases\"",
                    at: member.keyLocation)
                continue
            }
            guard let names = member.value.arrayValue else {
                problem(
                    .siteFileNotJSON, .error, "\"aliases\" is \(member.value.typeName); it must be an array of names",
                    at: member.value.location)
                continue
            }
            for name in names {
                guard let text = name.stringValue else {
                    problem(
                        .siteFileNotJSON, .error, "an alias is \(name.typeName); each must be a string",
                        at: name.location)
                    continue
                }
                guard let key = HostName.siteKey(folder: text) else {
                    problem(
                        .siteAliasNotAHost, .error,
                        "\"\(text)\" is not a host name (letters, digits, -, _ and dots, or *. and those; no port, "
                            + "no scheme or path), so it is not served", at: name.location)
                    continue
                }
                if let refusal = Self.refusal(of: key) {
                    problem(
                        .siteAliasNotExact, .error,
                        "\"\(text)\" is \(refusal), so it is not served: an alias names one exact host (a folder "
                            + "named *.domain is the way to serve a wildcard)", at: name.location)
                    continue
                }
                guard locations[key] == nil else { continue }
                aliases.append(key)
                locations[key] = name.location
            }
        }
    }

    /// Why `key` (a site key) cannot be an alias, or nil: an alias is one exact public host
    /// name, since it takes its name from no folder the operator made (docs/security.md,
    /// "Aliases a tenant can claim"). No wildcard, no IP address (a last label of digits
    /// only: RFC 1123 §2.1, RFC 3696 §2), no `localhost` (RFC 6761 §6.3), no single label.
    public static func refusal(of key: String) -> String? {
        if key.hasPrefix("*.") { return "a wildcard" }
        if key == "localhost" || key.hasSuffix(".localhost") { return "localhost" }
        guard let last = key.split(separator: ".").last, key.contains(".") else { return "a single label" }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return "an IP address" }
        return nil
    }

    /// `SITE014`: `alias`, named in `path`, is refused because of `reason` ("the site folder
    /// other.example serves that name").
    public static func collision(
        _ alias: String, path: String, site: String, location: SourceLocation?, holder reason: String
    ) -> LoadProblem {
        var problem = LoadProblem(
            path, .siteAliasCollides, .warning,
            "the alias \(alias) is not served from here: \(reason); remove it from \(site)'s site.json",
            site: site)
        (problem.lineNumber, problem.column) = (location?.line, location?.column)
        return problem
    }

    /// `SITE017`: `alias`, named in `path`, is already served from `incumbent`'s `site.json`,
    /// which still names it: the incumbent keeps it, this claim is refused.
    public static func claimedAfter(
        _ alias: String, path: String, site: String, location: SourceLocation?, incumbent: String
    ) -> LoadProblem {
        var problem = LoadProblem(
            path, .siteAliasClaimedTwice, .warning,
            "the alias \(alias) is not served from here: \(incumbent)'s site.json names it too and serves it"
                + " already; remove it from \(site)'s site.json",
            site: site)
        (problem.lineNumber, problem.column) = (location?.line, location?.column)
        return problem
    }

    /// `SITE017`: `alias`, named in `path`, is also named by the `site.json` of each of `others`:
    /// served by none of them, whatever order the folders are read in.
    public static func claimedTwice(
        _ alias: String, path: String, site: String, location: SourceLocation?, others: [String]
    ) -> LoadProblem {
        var problem = LoadProblem(
            path, .siteAliasClaimedTwice, .warning,
            "the alias \(alias) is not served: \(([site] + others).map { "\($0)'s site.json" }.joined(separator: " and "))"
                + " all name it; keep it in one of them",
            site: site)
        (problem.lineNumber, problem.column) = (location?.line, location?.column)
        return problem
    }
}
