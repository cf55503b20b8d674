import Foundation

@testable import AssociationKit

/// Answers one compatibility-test group's Check and List queries the way a server built on
/// `AssetLinksValidator` would: the source site's /.well-known/assetlinks.json from the group's
/// `web_content`, includes followed, statements with an error skipped and the answer marked a
/// fetch error (as Google does: the valid statements still count), no statements at all a fetch
/// error too.
struct StatementListEvaluator {
    struct Statement: Hashable, CustomStringConvertible {
        var relation: String
        var target: String
        var description: String { "\(relation) → \(target)" }
    }

    enum Outcome: String {
        case success = "SUCCESS"
        case queryParsingError = "QUERY_PARSING_ERROR"
        case fetchError = "FETCH_ERROR"
    }

    let group: ProtoText.Value
    let name: String
    /// Served bodies by URL, the scheme and host lower-cased.
    let web: [String: String]

    init(_ group: ProtoText.Value) {
        self.group = group
        name = group["name"]?.scalar ?? "?"
        var web: [String: String] = [:]
        for content in group.all("web_content") {
            guard let url = content["url"]?.scalar, let body = content["body"]?.scalar else { continue }
            web[Self.normalizedURL(url)] = body
        }
        self.web = web
    }

    /// Groups that do not apply to a server whose file Android fetches over HTTPS, and why.
    static let notApplicable = [
        "comptest5008": "an http source may include an http file; Android verifies https sources only, where an "
            + "http include is an error (ADL014, Google's ERROR_CODE_SECURE_ASSET_INCLUDES_INSECURE)"
    ]

    /// One entry per query of the group: nil when it agrees, else what differs. Queries whose
    /// source is an app (statements inside an APK) are not a web server's and are left out.
    func run() -> [String?] {
        guard group.all("android_content").isEmpty, !Self.notApplicable.keys.contains(where: { name.hasPrefix($0) })
        else { return [] }
        var results: [String?] = []
        for test in group.all("check_statements_tests") {
            guard let request = test["request"], let site = request["source"]?["web"]?["site"]?.scalar else { continue }
            let expected = test["outcome"]?.scalar ?? "SUCCESS"
            let linked = test["response"]?.scalar == "true"
            let (outcome, statements) = answer(site, relation: request["relation"]?.scalar ?? "")
            let wanted = request["relation"]?.scalar.map { relation in
                Statement(relation: relation, target: Self.target(request["target"]) ?? "?")
            }
            let ours = wanted.map { statements.contains($0) } ?? false
            let label = "\(name) / \(test["name"]?.scalar ?? "check")"
            if outcome.rawValue != expected || ours != linked {
                results.append(
                    "\(label): expected \(expected) linked=\(linked), got \(outcome.rawValue) linked=\(ours) "
                        + "(statements: \(statements.map(\.description).sorted()))")
            } else {
                results.append(nil)
            }
        }
        for test in group.all("list_statements_tests") {
            guard let request = test["request"], let site = request["source"]?["web"]?["site"]?.scalar else { continue }
            let expected = test["outcome"]?.scalar ?? "SUCCESS"
            let relation = request["relation"]?.scalar
            let wanted = Set(
                test.all("response").map {
                    Statement(relation: $0["relation"]?.scalar ?? "", target: Self.target($0["target"]) ?? "?")
                })
            let (outcome, statements) = answer(site, relation: relation)
            let listed = statements.filter { relation == nil || $0.relation == relation }
            let label = "\(name) / \(test["name"]?.scalar ?? "list")"
            // A fetch error's partial list is not compared: Google lists what it could read.
            if outcome.rawValue != expected || (outcome == .success && listed != wanted) {
                results.append(
                    "\(label): expected \(expected) \(wanted.map(\.description).sorted()), got \(outcome.rawValue) "
                        + "\(listed.map(\.description).sorted())")
            } else {
                results.append(nil)
            }
        }
        return results
    }

    /// The outcome and the statements of the source site's list.
    func answer(_ site: String, relation: String? = nil) -> (Outcome, Set<Statement>) {
        guard let origin = Self.normalizedSite(site), relation.map(Self.isRelation) ?? true else {
            return (.queryParsingError, [])
        }
        var failed = false
        var statements: Set<Statement> = []
        var budget = 10
        load(origin + "/.well-known/assetlinks.json", failed: &failed, into: &statements, budget: &budget)
        if statements.isEmpty { failed = true }
        return (failed ? .fetchError : .success, statements)
    }

    private func load(_ url: String, failed: inout Bool, into statements: inout Set<Statement>, budget: inout Int) {
        budget -= 1
        guard budget >= 0, let body = web[Self.normalizedURL(url)] else {
            failed = true
            return
        }
        let report = AssetLinksValidator.validate(Array(body.utf8))
        guard let file = report.file else {
            failed = true
            return
        }
        let errors = report.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { failed = true }
        for statement in file.statements {
            // A statement with an error of its own is skipped; the others count.
            let prefix = "/\(statement.index)"
            if errors.contains(where: { $0.pointer == prefix || $0.pointer.hasPrefix(prefix + "/") }) { continue }
            if let include = statement.include {
                load(include, failed: &failed, into: &statements, budget: &budget)
                continue
            }
            let targets: [String]
            switch statement.target {
            case .androidApp(let package, let prints)?: targets = prints.map { "android:\(package)/\($0.uppercased())" }
            case .web(let site)?: targets = Self.normalizedSite(site).map { ["web:" + $0] } ?? []
            case nil: targets = []
            }
            for relation in statement.relations {
                for target in targets { statements.insert(Statement(relation: relation, target: target)) }
            }
        }
    }

    /// `kind/detail`, each `[a-z0-9_.]+`: a query's relation is exact, never a pattern.
    static func isRelation(_ relation: String) -> Bool {
        let parts = relation.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == ".") }
            }
    }

    /// A request's or response's target, in the evaluator's terms.
    static func target(_ asset: ProtoText.Value?) -> String? {
        if let site = asset?["web"]?["site"]?.scalar { return normalizedSite(site).map { "web:" + $0 } }
        if let app = asset?["android_app"], let package = app["package_name"]?.scalar {
            let print = app["certificate"]?["sha256_fingerprint"]?.scalar ?? ""
            return "android:\(package)/\(print.uppercased())"
        }
        return nil
    }

    /// `scheme://host[:port]` lower-cased, without a trailing dot; nil when it is not one.
    static func normalizedSite(_ site: String) -> String? {
        let scheme = site.prefix { $0 != ":" }.lowercased()
        guard scheme == "https" || scheme == "http", site.dropFirst(scheme.count).hasPrefix("://") else { return nil }
        var authority = site.dropFirst(scheme.count + 3)
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("?"), !authority.contains("#"),
            AssetLinksValidator.authorityProblem(authority) == nil
        else { return nil }
        var host = String(authority).lowercased()
        var port = ""
        if let colon = host.lastIndex(of: ":") {
            port = String(host[colon...])
            host = String(host[..<colon])
        }
        if host.hasSuffix(".") { host.removeLast() }
        // The scheme's default port names the same site.
        if (scheme == "http" && port == ":80") || (scheme == "https" && port == ":443") { port = "" }
        return "\(scheme)://\(host)\(port)"
    }

    static func normalizedURL(_ url: String) -> String {
        let scheme = url.prefix { $0 != ":" }
        let rest = url.dropFirst(scheme.count + 3)
        let authority = rest.prefix { $0 != "/" }
        let site = normalizedSite("\(scheme)://\(authority)") ?? "\(scheme)://\(authority)".lowercased()
        return site + rest.dropFirst(authority.count)
    }
}
