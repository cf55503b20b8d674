import AASAACME
import AASALoop
import AASASites
import AASATransport
import AssociationKit
import Foundation

extension ServerConfiguration {
    /// The keys a config file may have, for the error about any other.
    static var knownKeys: String {
        (Setting.allCases.map(\.rawValue) + ["acmeIssuers", "timeouts", "limits"]).joined(separator: ", ")
    }

    /// The settings a config file gives as a list of strings.
    static let lists: [Setting] = [.adminHosts, .appleFetcherNetworks, .trustedProxies, .acmeOnDemandNames]

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// The settings a source may give, each by its name in the config file.
    public enum Setting: String, CaseIterable, Sendable {
        case sites, certs, http, https, admin, adminPublic, adminHosts, adminTokenFile, workers, logFormat, accessLog,
            cacheControl, defaultCertificate, metricsPerSite, acme, acmeDirectory, acmeEmail, acmeDirectoryCa,
            acmeChallenges, acmeOnDemand, acmeOnDemandRate, acmeOnDemandWeekly, acmeOnDemandNames, acmeOnDemandAsk,
            acmeOnDemandAskCa, acmeEabKid, acmeEabHmacKeyFile, acmeProfile, cdnWatch, cdnWatchUrl, cdnWatchCa,
            cdnWatchInterval, cdnWatchRate, appleFetcherAgent, invalidSites, appleFetcherNetworks, trustedProxies,
            deletedFileGrace,
            maxConnections, maxHandshakes,
            googleWatch, googleWatchUrl, googleWatchCa, googleWatchInterval, googleWatchRate, googleWatchKeyFile

        /// `AASA_SITES`, `AASA_LOG_FORMAT`, …
        public var environmentName: String {
            "AASA_"
                + rawValue.reduce(into: "") { name, character in
                    if character.isUppercase { name += "_" }
                    name += character.uppercased()
                }
        }
    }

    /// Applies one setting given as text (from the environment or a flag).
    public mutating func apply(_ setting: Setting, _ value: String, source: String) throws(Problem) {
        func address() throws(Problem) -> SocketAddress? {
            if value.isEmpty || value == "off" { return nil }
            do { return try SocketAddress(parsing: value) } catch {
                throw Problem(description: "\(source): \(error.description)")
            }
        }
        switch setting {
        case .sites: sites = value
        case .certs: certs = value
        case .http: http = try address()
        case .https: https = try address()
        case .admin: admin = try address()
        case .workers:
            workers = try Self.integer(value, in: 0...1024, "\(source): workers must be 0 (one per core) to 1024")
        case .maxConnections:
            maxConnections = try Self.integer(
                value, in: 1...1_048_576, "\(source): max connections must be 1 to 1048576")
        case .maxHandshakes:
            maxHandshakes = try Self.integer(
                value, in: 1...1_048_576, "\(source): max handshakes must be 1 to 1048576")
        case .logFormat:
            guard let format = LogFormat(rawValue: value) else {
                throw Problem(description: "\(source): log format must be text or json")
            }
            logFormat = format
        case .accessLog:
            accessLog = try Self.onOff(value, "\(source): access log must be on or off")
        case .appleFetcherNetworks, .trustedProxies:
            guard let networks = IPNetwork.list(value) else {
                throw Problem(description: "\(source): must be a list of IPv4 or IPv6 networks, like 17.0.0.0/8")
            }
            if setting == .trustedProxies { trustedProxies = networks } else { appleFetcherNetworks = networks }
        case .invalidSites:
            guard let choice = InvalidSites(rawValue: value) else {
                throw Problem(description: "\(source): invalid sites must be refuse or skip")
            }
            invalidSites = choice
        case .deletedFileGrace:
            deletedFileGrace = try Self.integer(
                value, in: 0...86_400, "\(source): the deleted-file grace must be 0 (none) to 86400 seconds")
        case .metricsPerSite:
            metricsPerSite = try Self.onOff(value, "\(source): metrics per site must be on or off")
        case .acme, .acmeDirectory, .acmeEmail, .acmeDirectoryCa, .acmeChallenges, .acmeOnDemand, .acmeOnDemandRate,
            .acmeOnDemandWeekly, .acmeOnDemandNames, .acmeOnDemandAsk, .acmeOnDemandAskCa, .acmeEabKid,
            .acmeEabHmacKeyFile, .acmeProfile:
            try applyACME(setting, value, source: source)
        case .cdnWatch, .cdnWatchUrl, .cdnWatchCa, .cdnWatchInterval, .cdnWatchRate, .appleFetcherAgent:
            try applyCDNWatch(setting, value, source: source)
        case .googleWatch, .googleWatchUrl, .googleWatchCa, .googleWatchInterval, .googleWatchRate, .googleWatchKeyFile:
            try applyGoogleWatch(setting, value, source: source)
        case .defaultCertificate: defaultCertificate = value.isEmpty ? nil : value
        case .adminPublic:
            adminPublic = try Self.onOff(value, "\(source): adminPublic must be true or false")
        case .adminHosts: adminHosts = try Self.hostNames(value, source: source)
        case .adminTokenFile: adminTokenFile = value.isEmpty ? nil : value
        case .cacheControl:
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw Problem(description: "\(source): cache control must be printable ASCII")
            }
            cacheControl = value
        }
    }

    private mutating func applyACME(_ setting: Setting, _ value: String, source: String) throws(Problem) {
        switch setting {
        case .acme:
            acme.enabled = try Self.onOff(value, "\(source): acme must be on or off")
        case .acmeOnDemand:
            acme.onDemand = try Self.onOff(value, "\(source): acme on-demand must be on or off")
        case .acmeDirectory:
            guard value.hasPrefix("https://") else {
                throw Problem(description: "\(source): the ACME directory must be an https:// URL")
            }
            acme.directory = value
        case .acmeEmail:
            guard value.isEmpty || (value.contains("@") && !value.contains(where: { $0 == " " || $0 == "," })) else {
                throw Problem(description: "\(source): not an email address: \(value)")
            }
            acme.email = value.isEmpty ? nil : value
        case .acmeDirectoryCa: acme.directoryCA = value.isEmpty ? nil : value
        case .acmeEabKid: acme.eabKid = value.isEmpty ? nil : value
        case .acmeEabHmacKeyFile: acme.eabHmacKeyFile = value.isEmpty ? nil : value
        case .acmeProfile:
            guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw Problem(description: "\(source): an ACME profile is a name without spaces")
            }
            acme.profile = value.isEmpty ? nil : value
        case .acmeChallenges:
            guard let list = ChallengeType.parseList(value) else {
                throw Problem(description: "\(source): challenges must be a list of http-01 and tls-alpn-01")
            }
            acme.challenges = list
        case .acmeOnDemandRate:
            acme.onDemandPerHour = try Self.integer(
                value, in: 0...10_000, "\(source): the on-demand rate must be 0 to 10000 new names per hour")
        case .acmeOnDemandWeekly:
            acme.onDemandWeekly = try Self.integer(
                value, in: 0...1000,
                "\(source): the on-demand budget must be 0 to 1000 new names per registered domain in 7 days")
        case .acmeOnDemandNames:
            var patterns: [OnDemandNamePattern] = []
            for part in value.split(separator: ",") {
                let text = part.trimmingCharacters(in: .whitespaces)
                guard let pattern = OnDemandNamePattern(text) else {
                    throw Problem(
                        description: "\(source): \"\(text)\" is no on-demand name pattern: dot-separated labels of "
                            + "letters, digits, hyphens and *, which matches within one label "
                            + "(pr-*.staging.example.com)"
                    )
                }
                patterns.append(pattern)
            }
            acme.onDemandNames = patterns
        case .acmeOnDemandAsk:
            guard value.isEmpty || OnDemandAsk.target(value) != nil else {
                throw Problem(
                    description: "\(source): the on-demand ask URL must be an https:// URL, or an http:// URL on a "
                        + "loopback address (http://127.0.0.1:9000/ask)")
            }
            acme.onDemandAsk = value.isEmpty ? nil : value
        case .acmeOnDemandAskCa: acme.onDemandAskCA = value.isEmpty ? nil : value
        default: break
        }
    }

    private mutating func applyCDNWatch(_ setting: Setting, _ value: String, source: String) throws(Problem) {
        switch setting {
        case .cdnWatch:
            cdnWatch.enabled = try Self.onOff(value, "\(source): the CDN watch must be on or off")
        case .cdnWatchUrl:
            guard value.hasPrefix("https://"), value.hasSuffix("/") else {
                throw Problem(description: "\(source): the CDN watch URL must be an https:// URL ending in /")
            }
            cdnWatch.url = value
        case .cdnWatchCa: cdnWatch.caFile = value.isEmpty ? nil : value
        case .cdnWatchInterval:
            cdnWatch.interval = try Self.integer(
                value, in: 1...604_800, "\(source): the CDN watch interval must be 1 to 604800 seconds")
        case .cdnWatchRate:
            cdnWatch.ratePerMinute = try Self.integer(
                value, in: 1...6000, "\(source): the CDN watch rate must be 1 to 6000 fetches per minute")
        case .appleFetcherAgent:
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw Problem(description: "\(source): the Apple fetcher agent must be printable ASCII")
            }
            cdnWatch.appleFetcherAgent = value
        default: break
        }
    }

    /// A switch's value: on/true or off/false (a config file's booleans arrive as on/off).
    static func onOff(_ value: String, _ problem: @autoclosure () -> String) throws(Problem) -> Bool {
        guard let flag = ["on": true, "true": true, "off": false, "false": false][value] else {
            throw Problem(description: problem())
        }
        return flag
    }

    /// A comma-separated list of DNS names (RFC 1123 §2.1 letters, digits, hyphens and dots),
    /// lower-cased, a trailing dot removed; empty means none.
    static func hostNames(_ value: String, source: String) throws(Problem) -> [String] {
        var names: [String] = []
        for part in value.split(separator: ",") {
            var name = part.trimmingCharacters(in: .whitespaces)
            if name.hasSuffix(".") { name.removeLast() }
            // Checked before lower-casing: some non-ASCII letters lower-case to ASCII ones.
            let allowed = name.utf8.allSatisfy { byte in
                HTTPToken.lower(byte) >= UInt8(ascii: "a") && HTTPToken.lower(byte) <= UInt8(ascii: "z")
                    || HTTPToken.isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
            name = name.lowercased()
            guard !name.isEmpty, name.utf8.count <= 253, allowed else {
                throw Problem(
                    description: "\(source): admin host names are DNS names without a port (got \"\(part)\")")
            }
            names.append(name)
        }
        return names
    }

    /// A whole number within `range`.
    static func integer(
        _ value: String, in range: ClosedRange<Int>, _ problem: @autoclosure () -> String
    ) throws(Problem) -> Int {
        guard let number = Int(value), range.contains(number) else { throw Problem(description: problem()) }
        return number
    }

    /// Reads `AASA_*` variables.
    public mutating func applyEnvironment(_ environment: [String: String]) throws(Problem) {
        for setting in Setting.allCases {
            if let value = environment[setting.environmentName] {
                try apply(setting, value, source: setting.environmentName)
            }
        }
    }

    /// Reads a JSON config file with the strict JSON reader. Unknown keys are errors: a
    /// misspelt setting must not be silently ignored. Relative paths in the file are relative
    /// to the file's own folder.
    public mutating func applyFile(at path: String) throws(Problem) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "\(path): cannot read the config file")
        }
        try applyFile(contents: [UInt8](data), path: path)
    }

    /// The same for a config file's bytes, read from `path`.
    public mutating func applyFile(contents: [UInt8], path: String) throws(Problem) {
        let document = JSONDocument.parse(contents)
        guard let root = document.root, let members = root.members else {
            let lines = DiagnosticLines.render(document.diagnostics, path: path)
            throw Problem(
                description: lines.isEmpty
                    ? "\(path): the config file must hold a JSON object" : String(lines.dropLast()))
        }
        let folder = (path as NSString).deletingLastPathComponent
        for member in members {
            let place = "\(path):\(member.keyLocation.line):\(member.keyLocation.column)"
            switch member.key {
            case "timeouts": try applyTimeouts(member.value, place: place)
            case "limits": try applyLimits(member.value, place: place)
            case "acmeIssuers": try applyIssuers(member.value, place: place, folder: folder)
            default:
                guard let setting = Setting(rawValue: member.key) else {
                    throw Problem(
                        description:
                            "\(place): unknown setting \"\(member.key)\" (known: \(Self.knownKeys))"
                    )
                }
                let text: String
                switch member.value.kind {
                case .string(let value): text = value
                case .bool(let value): text = value ? "on" : "off"
                case .number(_, let literal): text = literal
                // null turns a switch or a listener off, and clears a list or a file.
                case .null:
                    text =
                        Self.lists.contains(setting)
                            || [.adminTokenFile, .acmeOnDemandAsk, .acmeOnDemandAskCa].contains(setting)
                            || Self.googleWatchFiles.contains(setting)
                        ? "" : "off"
                case .array(let items) where Self.lists.contains(setting):
                    text = try strings(items, place: place).joined(separator: ",")
                default: throw Problem(description: "\(place): \(member.key) must be a string, number or boolean")
                }
                let files: [Setting] =
                    [
                        .sites, .certs, .acmeDirectoryCa, .acmeEabHmacKeyFile, .acmeOnDemandAskCa, .cdnWatchCa,
                        .adminTokenFile,
                    ] + Self.googleWatchFiles
                let resolved =
                    files.contains(setting) && !text.isEmpty && !text.hasPrefix("/")
                    ? (folder as NSString).appendingPathComponent(text) : text
                try apply(setting, resolved, source: place)
            }
        }
    }

    /// `acmeIssuers`: a list of objects with `directory` (https), `ca`, `eabKid`,
    /// `eabHmacKeyFile` and `profile` (docs/acme.md, "Issuers in order"); null clears the list.
    /// Files are relative to the config file's folder.
    private mutating func applyIssuers(_ value: JSONValue, place: String, folder: String) throws(Problem) {
        if case .null = value.kind {
            acme.issuerList = nil
            return
        }
        guard case .array(let items) = value.kind, !items.isEmpty else {
            throw Problem(description: "\(place): acmeIssuers must be a list of issuer objects")
        }
        var issuers: [ACMEIssuerSettings] = []
        for (index, item) in items.enumerated() {
            guard let members = item.members else {
                throw Problem(description: "\(place): acmeIssuers[\(index)] must be an object")
            }
            var fields: [String: String] = [:]
            for member in members {
                guard ["directory", "ca", "eabKid", "eabHmacKeyFile", "profile"].contains(member.key) else {
                    throw Problem(
                        description: "\(place): acmeIssuers[\(index)]: unknown key \"\(member.key)\" "
                            + "(known: directory, ca, eabKid, eabHmacKeyFile, profile)")
                }
                guard case .string(let text) = member.value.kind, !text.isEmpty else {
                    throw Problem(description: "\(place): acmeIssuers[\(index)].\(member.key) must be a string")
                }
                let isFile = member.key == "ca" || member.key == "eabHmacKeyFile"
                fields[member.key] =
                    isFile && !text.hasPrefix("/") ? (folder as NSString).appendingPathComponent(text) : text
            }
            guard let directory = fields["directory"] else {
                throw Problem(description: "\(place): acmeIssuers[\(index)] needs a directory")
            }
            let issuer = ACMEIssuerSettings(
                directory: directory, ca: fields["ca"], eabKid: fields["eabKid"],
                eabHmacKeyFile: fields["eabHmacKeyFile"], profile: fields["profile"])
            if let problem = issuer.problem {
                throw Problem(description: "\(place): acmeIssuers[\(index)]: \(problem)")
            }
            issuers.append(issuer)
        }
        acme.issuerList = issuers
    }

    private mutating func applyTimeouts(_ value: JSONValue, place: String) throws(Problem) {
        for (key, number) in try numbers(value, place: place) {
            guard number > 0 && number <= 3600 else {
                throw Problem(description: "\(place): timeouts.\(key) must be between 0 and 3600 seconds")
            }
            switch key {
            case "handshake": timeouts.handshake = number
            case "requestHead": timeouts.requestHead = number
            case "keepAlive": timeouts.keepAlive = number
            case "write": timeouts.write = number
            case "shutdown": timeouts.shutdown = number
            case "cdnFetch": cdnWatch.fetchTimeout = number
            case "googleFetch": googleWatch.fetchTimeout = number
            default:
                throw Problem(
                    description:
                        "\(place): unknown timeout \"\(key)\" (known: handshake, requestHead, keepAlive, write, "
                        + "shutdown, cdnFetch, googleFetch)"
                )
            }
        }
    }

    private mutating func applyLimits(_ value: JSONValue, place: String) throws(Problem) {
        for (key, number) in try numbers(value, place: place) {
            guard number >= 1 && number <= 1_048_576 && number == number.rounded() else {
                throw Problem(description: "\(place): limits.\(key) must be a whole number from 1 to 1048576")
            }
            switch key {
            case "requestLineBytes": limits.requestLineBytes = Int(number)
            case "headerBytes": limits.headerBytes = Int(number)
            case "headerCount": limits.headerCount = Int(number)
            default:
                throw Problem(
                    description:
                        "\(place): unknown limit \"\(key)\" (known: requestLineBytes, headerBytes, headerCount)")
            }
        }
    }

    private func strings(_ items: [JSONValue], place: String) throws(Problem) -> [String] {
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item.kind else {
                throw Problem(description: "\(place): must be a list of strings")
            }
            result.append(text)
        }
        return result
    }

    private func numbers(_ value: JSONValue, place: String) throws(Problem) -> [(String, Double)] {
        guard let members = value.members else { throw Problem(description: "\(place): must be an object of numbers") }
        var result: [(String, Double)] = []
        for member in members {
            guard case .number(let number, _) = member.value.kind else {
                throw Problem(description: "\(place): \(member.key) must be a number")
            }
            result.append((member.key, number))
        }
        return result
    }
}
