import AASAACME
import AASATransport
import AssociationKit
import Foundation

/// Certificates from an ACME CA (docs/acme.md, "Automatic certificates (ACME)").
/// `acmeIssuers` is a list of objects: the config file's JSON list, the flag's and the
/// variable's the same list as JSON text.
extension SettingGroup {
    static let acmeSettings: [Setting] = [
        Setting(
            "acme", \.acme.enabled, .onOff("acme must be on or off"), valueName: "on|off", example: "on",
            help: "Certificates from an ACME CA (Let's Encrypt by default), on or off; needs --https",
            refuses: { settings in
                guard settings.acme.enabled else { return nil }
                if settings.https == nil { return "--acme on needs an HTTPS listener (--https ADDR:PORT)" }
                if settings.acmeChallenges.isEmpty {
                    return "no ACME challenge type is possible: http-01 needs --http, tls-alpn-01 --https"
                }
                return nil
            }),
        Setting(
            "acmeDirectory", \.acme.directory,
            SettingValue(
                read: { text throws(ServerConfiguration.Problem) in
                    guard text.hasPrefix("https://") else {
                        throw ServerConfiguration.Problem(description: "the ACME directory must be an https:// URL")
                    }
                    return text
                }, show: { $0 ?? ACMESettings.letsEncrypt }),
            valueName: "url", example: "https://ca.example/directory", help: "The ACME directory URL",
            defaultText: "Let's Encrypt's, \(ACMESettings.letsEncrypt)"),
        Setting(
            "acmeEmail", \.acme.email,
            .optional {
                $0.contains("@") && !$0.contains(where: { $0 == " " || $0 == "," })
                    ? nil : "not an email address: \($0)"
            },
            valueName: "address", example: "ops@example.com", help: "The contact address of the ACME account"),
        Setting(
            "acmeDirectoryCa", \.acme.directoryCA, .file, valueName: "file", example: "/etc/aasa/acme-ca.pem",
            help: "A PEM CA file to trust, besides the system's, when talking to the ACME server"),
        Setting(
            "acmeEabKid", \.acme.eabKid, .optional(), valueName: "kid", example: "kid-1",
            help: "The key identifier for the ACME CA's external account binding (RFC 8555 §7.3.4)"),
        Setting(
            "acmeEabHmacKeyFile", \.acme.eabHmacKeyFile, .file, valueName: "file", example: "/etc/aasa/eab.key",
            help: "A file (mode 0600) holding the base64url HMAC key for --acme-eab-kid"),
        Setting(
            "acmeProfile", \.acme.profile,
            .optional {
                $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } ? nil : "an ACME profile is a name without spaces"
            },
            valueName: "name", example: "tlsserver",
            help: "The ACME profile to order under, one the directory lists (tlsserver, classic, ...)",
            defaultText: "the CA's"),
        Setting(
            "acmeChallenges", \.acme.challenges,
            SettingValue(
                read: { text throws(ServerConfiguration.Problem) in
                    guard let list = ChallengeType.parseList(text) else {
                        throw ServerConfiguration.Problem(
                            description: "challenges must be a list of http-01 and tls-alpn-01")
                    }
                    return list
                }, show: { $0?.map(\.rawValue).joined(separator: ",") ?? "all" }),
            valueName: "list", example: "tls-alpn-01", help: "ACME challenge types in preference order",
            defaultText: "http-01,tls-alpn-01 as the listeners allow"),
        Setting(
            "acmeOnDemand", \.acme.onDemand, .onOff("acme on-demand must be on or off"), valueName: "on|off",
            example: "off", help: "Certificates on demand for names of wildcard sites, on or off"),
        Setting(
            "acmeOnDemandRate", \.acme.onDemandPerHour,
            .integer(0...10_000, "the on-demand rate must be 0 to 10000 new names per hour"), valueName: "n",
            example: "3", help: "New on-demand names per hour, all together"),
        Setting(
            "acmeOnDemandWeekly", \.acme.onDemandWeekly,
            .integer(0...1000, "the on-demand budget must be 0 to 1000 new names per registered domain in 7 days"),
            valueName: "n", example: "7",
            help: "New on-demand names (and, counted apart, certificates for aliases) per registered domain in 7 days"),
        Setting(
            "acmeOnDemandNames", \.acme.onDemandNames, .list(ServerConfiguration.onDemandNames, show: \.description),
            valueName: "glob", example: "pr-*.staging.example.com,*.preview.example.org",
            help: "A pattern on-demand names must match, * within one label: pr-*.staging.example.com (repeatable)",
            defaultText: "any name of a wildcard site"),
        Setting(
            "acmeOnDemandAsk", \.acme.onDemandAsk,
            .optional {
                OnDemandAsk.target($0) != nil
                    ? nil
                    : "the on-demand ask URL must be an https:// URL, or an http:// URL on a loopback address "
                        + "(http://127.0.0.1:9000/ask)"
            }, valueName: "url", example: "http://127.0.0.1:9000/ask",
            help: "A URL asked GET URL?domain=NAME before an on-demand name is ordered; 2xx allows it (https, or "
                + "http on loopback)"),
        Setting(
            "acmeOnDemandAskCa", \.acme.onDemandAskCA, .file, valueName: "file", example: "/etc/aasa/ask-ca.pem",
            help: "A PEM CA file to trust, besides the system's, when the on-demand ask URL is https"),
        Setting(
            "acmeIssuers", \.acme.issuerList, .document(issuers, show: { $0.map { "\($0.count) issuers" } ?? "none" }),
            valueName: "json", example: #"[{"directory": "https://ca.example/directory", "profile": "tlsserver"}]"#,
            help: "CAs in order, a JSON list of {directory, ca, eabKid, eabHmacKeyFile, profile}; a name whose order "
                + "fails at one is ordered from the next",
            refuses: { $0.acme.enabled ? $0.acme.issuersProblem : nil }),
        Setting(
            "acmePreflight", \.acme.preflight, .onOff("acme pre-flight must be on or off"), valueName: "on|off",
            example: "off",
            help: "Before ordering, check that the name resolves and reaches this deployment over HTTP, on or off"),
        Setting(
            "acmePreflightResolver", \.acme.preflightResolver,
            SettingValue(
                read: { text throws(ServerConfiguration.Problem) in
                    if text.isEmpty { return nil }
                    do { return try SocketAddress(parsing: text) } catch {
                        throw ServerConfiguration.Problem(description: "the pre-flight resolver: \(error)")
                    }
                }, show: { $0?.description ?? "the system's resolver" }, cleared: ""),
            valueName: "addr:port", example: "127.0.0.1:53",
            help: "The DNS server the pre-flight asks (UDP, TCP for long answers)", defaultText: "the system's resolver"
        ),
        Setting(
            "acmePreflightPort", \.acme.preflightPort,
            .integer(1...65_535, "the pre-flight port must be 1 to 65535"), valueName: "port", example: "8080",
            help: "The port the pre-flight's HTTP request goes to: where the CA connects for HTTP-01"),
    ]

    /// `acmeIssuers`' objects (docs/acme.md, "Issuers in order"); null clears the list. The
    /// files `ca` and `eabHmacKeyFile` are relative to `folder` (a config file's).
    private static func issuers(
        _ value: JSONValue, folder: String
    ) throws(ServerConfiguration.Problem) -> [ACMEIssuerSettings]? {
        typealias Problem = ServerConfiguration.Problem
        if case .null = value.kind { return nil }
        guard case .array(let items) = value.kind, !items.isEmpty else {
            throw Problem(description: "acmeIssuers must be a list of issuer objects")
        }
        let known = ["directory", "ca", "eabKid", "eabHmacKeyFile", "profile"]
        var issuers: [ACMEIssuerSettings] = []
        for (index, item) in items.enumerated() {
            guard let members = item.members else {
                throw Problem(description: "acmeIssuers[\(index)] must be an object")
            }
            var fields: [String: String] = [:]
            for member in members {
                guard known.contains(member.key) else {
                    throw Problem(
                        description: "acmeIssuers[\(index)]: unknown key \"\(member.key)\" (known: "
                            + known.joined(separator: ", ") + ")")
                }
                guard case .string(let text) = member.value.kind, !text.isEmpty else {
                    throw Problem(description: "acmeIssuers[\(index)].\(member.key) must be a string")
                }
                let isFile = member.key == "ca" || member.key == "eabHmacKeyFile"
                fields[member.key] =
                    isFile && !folder.isEmpty && !text.hasPrefix("/")
                    ? (folder as NSString).appendingPathComponent(text) : text
            }
            guard let directory = fields["directory"] else {
                throw Problem(description: "acmeIssuers[\(index)] needs a directory")
            }
            let issuer = ACMEIssuerSettings(
                directory: directory, ca: fields["ca"], eabKid: fields["eabKid"],
                eabHmacKeyFile: fields["eabHmacKeyFile"], profile: fields["profile"])
            if let problem = issuer.problem { throw Problem(description: "acmeIssuers[\(index)]: \(problem)") }
            issuers.append(issuer)
        }
        return issuers
    }
}
