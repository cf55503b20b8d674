import AASAFileCommands
import AASAProbe
import AASASignedData
import AASASites
import AASASystem
import AASATransport
import ArgumentParser
import AssociationKit
import Foundation

/// `aasa-server check-app --entitlements FILE [--app-id TEAMID.BUNDLE] (--sites DIR | --live) [--json]`
/// and, for Android, `--package NAME (--fingerprint SHA256 | --certificate FILE) --domain D…`:
/// does every domain the app claims serve a valid file that lists this app?
struct CheckAppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-app",
        abstract: "Check an app's associated domains against the files the sites serve.",
        discussion: """
            Apple: every applinks:, webcredentials:, appclips: and activitycontinuation: entry \
            of the entitlements (a property list or a provisioning profile) must have a site \
            serving a valid file that lists the app ID under that service. Android: every \
            --domain's assetlinks.json must grant the package with the certificate's SHA-256 \
            fingerprint. For passkeys (webcredentials: entries, and each Android --domain): \
            whether the package may use the domain's credentials, and the domain's webauthn and \
            passkey-endpoints, checked when served. Files come from --sites DIR, or live over HTTPS with --live. Exit 0 \
            all good, 1 a problem, 2 usage error or unreadable input.
            """)

    @Option(help: "Entitlements: a property list (.entitlements, codesign output) or a .mobileprovision.")
    var entitlements: String?

    @Option(
        name: .customLong("app-id"),
        help: "TEAMID.BUNDLE, when the entitlements hold only $(AppIdentifierPrefix) placeholders.")
    var appID: String?

    @Option(help: "Android: the application ID (package name).")
    var package: String?

    @Option(help: "Android: the signing certificate's SHA-256 fingerprint.")
    var fingerprint: String?

    @Option(help: "Android: the signing certificate (PEM or DER); its SHA-256 fingerprint is computed.")
    var certificate: String?

    @Option(
        name: .customLong("domain"), help: "Android: a domain whose assetlinks.json must grant the app (repeatable).")
    var domains: [String] = []

    @Option(help: "The sites directory to check against.")
    var sites: String?

    @Flag(help: "Check the live hosts over HTTPS instead (as probe does).")
    var live = false

    @Option(help: "With --live: trust this CA certificate (PEM) instead of the system store.")
    var cacert: String?

    @Option(name: .customLong("connect-to"), help: "With --live: dial HOST:PORT for every domain.")
    var connectTo: String?

    @Flag(help: "Print one JSON document.")
    var json = false

    /// Apple suggests keeping the associated domains of one app to about 20–30.
    static let recommendedDomains = 30

    func validate() throws {
        if (sites == nil) == !live { throw ValidationError("give exactly one of --sites DIR or --live") }
        if entitlements == nil && package == nil {
            throw ValidationError("give --entitlements FILE, or --package NAME for Android")
        }
        if package != nil && (fingerprint == nil) == (certificate == nil) {
            throw ValidationError("--package needs exactly one of --fingerprint SHA256 or --certificate FILE")
        }
        if package != nil && domains.isEmpty { throw ValidationError("--package needs at least one --domain") }
        if let connectTo, ProbeCommand.parseHostPort(connectTo) == nil {
            throw ValidationError("--connect-to takes HOST:PORT")
        }
    }

    func run() throws {
        var reports: [ProbeReport] = []
        if let entitlements { reports.append(try apple(entitlements)) }
        if let package { reports.append(try android(package)) }
        StandardStreams.write(
            json
                ? ChecklistOutput.json(reports, list: "apps", subject: "app", item: "entry")
                : ChecklistOutput.text(reports))
        if reports.contains(where: \.failed) { throw CommandFailure.invalid }
    }

    // MARK: Apple

    private func apple(_ path: String) throws -> ProbeReport {
        let read: Entitlements
        do {
            read = try Entitlements(contentsOf: path)
        } catch {
            return try unreadable(path, error.reason)
        }
        guard let app = appID ?? read.applicationIdentifier.flatMap({ $0.contains("$(") ? nil : $0 }) else {
            StandardStreams.writeError(
                "\(path): error: no application-identifier without $(…) placeholders; give --app-id TEAMID.BUNDLE\n")
            throw CommandFailure.unreadable
        }
        var report = ProbeReport(domain: app)
        if let team = read.teamIdentifier, !app.hasPrefix(team + ".") {
            report.add("team", .warn, "the app ID \(app) does not start with the profile's team ID \(team)")
        }
        if read.associatedDomains.isEmpty { report.add("entitlements", .fail, "\(path) lists no associated domains") }
        let linkDomains = read.associatedDomains.filter { $0.hasPrefix("applinks:") }.count
        if linkDomains > Self.recommendedDomains {
            report.add(
                "entitlements", .warn,
                "\(linkDomains) applinks domains; Apple recommends no more than about 20–30 per app")
        }
        for text in read.associatedDomains {
            guard let entry = AssociatedDomain(text), AssociatedDomain.services.contains(entry.service) else {
                report.add(
                    text, .warn,
                    "not an associated domain entry (service:domain with applinks, webcredentials, appclips "
                        + "or activitycontinuation)"
                )
                continue
            }
            check(entry, app: app, into: &report)
        }
        return report
    }

    private func check(_ entry: AssociatedDomain, app: String, into report: inout ProbeReport) {
        if let mode = entry.mode, mode.contains("developer") {
            report.add(
                entry.entry, .warn,
                "mode=\(mode) is for development builds only (Apple fetches from the origin directly); not for release")
        }
        if entry.isWildcard {
            let apex = String(entry.domain.dropFirst(2))
            report.add(
                entry.entry, .note,
                "\(entry.domain) covers subdomains only; \(apex) itself needs its own \(entry.service):\(apex) entry")
        }
        let fetched = appleFile(for: entry.domain)
        guard case .success(let (file, source)) = fetched else {
            if case .failure(let reason) = fetched { report.add(entry.entry, .fail, reason.message) }
            return
        }
        let listed: [String]
        switch entry.service {
        case "applinks": listed = AssociationMatcher(file: file).appIDs
        case "webcredentials": listed = file.webCredentials?.apps.map(\.value) ?? []
        case "appclips": listed = file.appClips?.apps.map(\.value) ?? []
        default: listed = file.activityContinuation?.apps.map(\.value) ?? []
        }
        if listed.contains(app) {
            report.add(entry.entry, .pass, "\(app) is listed under \(entry.service) in \(source)")
            if entry.service == "webcredentials" { passkeys(entry.domain, into: &report) }
        } else {
            report.add(
                entry.entry, .fail,
                "\(app) is not listed under \(entry.service) in \(source)" + Self.nearMiss(app, in: listed))
        }
    }

    /// A listed ID with the same bundle and another team, or the same team and a bundle that
    /// differs only slightly: name both, since that is the usual mistake.
    static func nearMiss(_ app: String, in listed: [String]) -> String {
        let (team, bundle) = split(app)
        for other in listed {
            let (otherTeam, otherBundle) = split(other)
            if otherBundle == bundle && otherTeam != team {
                return "; it lists \(other): the team ID differs (\(otherTeam) in the file, \(team) in the app)"
            }
            if otherTeam == team
                && (otherBundle.lowercased() == bundle.lowercased()
                    || Spelling.closest(to: bundle, among: [otherBundle]) != nil)
            {
                return "; it lists \(other): the bundle ID differs (\(otherBundle) in the file, \(bundle) in the app)"
            }
        }
        return listed.isEmpty ? " (it lists no app there)" : " (it lists \(listed.joined(separator: ", ")))"
    }

    static func split(_ app: String) -> (team: String, bundle: String) {
        guard let dot = app.firstIndex(of: ".") else { return (app, "") }
        return (String(app[..<dot]), String(app[app.index(after: dot)...]))
    }

    struct Failure: Error {
        var message: String
    }

    /// The decoded apple-app-site-association of `domain` and where it came from.
    private func appleFile(for domain: String) -> Result<(AssociationFile, String), Failure> {
        switch fileBytes(for: domain, name: FileCheck.Kind.apple.rawValue) {
        case .failure(let failure): return .failure(failure)
        case .success(let (bytes, source)):
            let validated = AssociationFileValidator.validate(bytes, signed: .command(domain: domain))
            guard validated.isValid, let file = validated.file else {
                return .failure(Failure(message: "\(source) is invalid (run validate for the details)"))
            }
            return .success((file, source))
        }
    }

    /// A site's file: from the sites directory (the site a request for `domain` would get),
    /// or fetched from `https://domain/.well-known/NAME`.
    func fileBytes(for domain: String, name: String) -> Result<([UInt8], String), Failure> {
        if let sites {
            guard let directory = try? SiteDirectory(root: URL(fileURLWithPath: sites)) else {
                return .failure(Failure(message: "\(sites) is not a readable sites directory"))
            }
            let site =
                domain.hasPrefix("*.") ? directory.sites.first { $0.name == domain } : directory.site(forHost: domain)
            guard let site else { return .failure(Failure(message: "no site folder in \(sites) serves \(domain)")) }
            let path = site.folder.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(Failure(message: "the site \(site.name) has no \(name)"))
            }
            return .success(([UInt8](data), (sites as NSString).appendingPathComponent("\(site.name)/\(name)")))
        }
        guard !domain.hasPrefix("*.") else {
            return .failure(Failure(message: "a wildcard domain cannot be fetched live; check one of its subdomains"))
        }
        let client = HTTPSClient(caFile: cacert, timeout: 10)
        let address = connectTo.flatMap(ProbeCommand.parseHostPort) ?? (domain, 443)
        let source = "https://\(domain)/.well-known/\(name)"
        switch client.fetch(
            host: domain, port: 443, address: address, path: "/.well-known/\(name)",
            userAgent: "aasa-server-check-app/\(Version.current)")
        {
        case .success(let (connection, response)):
            if let error = connection.verifyError {
                return .failure(Failure(message: "\(source): the certificate is not trusted: \(error)"))
            }
            guard response.status == 200 else {
                return .failure(Failure(message: "\(source) answers \(response.status), not 200"))
            }
            return .success((response.body, source))
        case .failure(let failure):
            return .failure(Failure(message: "\(source): \(failure.message)"))
        }
    }

    // MARK: Android

    private func android(_ package: String) throws -> ProbeReport {
        var expected = fingerprint.map(Self.normalizedFingerprint)
        if let certificate {
            guard let data = FileManager.default.contents(atPath: certificate),
                let computed = SignedContent.sha256Fingerprint(ofCertificate: [UInt8](data))
            else { return try unreadable(certificate, "not a PEM or DER certificate") }
            expected = computed
        }
        var report = ProbeReport(domain: package)
        for domain in domains.map({ $0.lowercased() }) {
            let name = "android:\(domain)"
            switch fileBytes(for: domain, name: FileCheck.Kind.android.rawValue) {
            case .failure(let failure):
                report.add(name, .fail, failure.message)
            case .success(let (bytes, source)):
                let validated = AssetLinksValidator.validate(bytes)
                guard let file = validated.file, validated.isValid else {
                    report.add(name, .fail, "\(source) is invalid (run validate for the details)")
                    continue
                }
                let granted = file.statements.compactMap { statement -> [String]? in
                    guard statement.relations.contains(AssetLinks.handleAllURLs),
                        case .androidApp(package, let prints)? = statement.target
                    else { return nil }
                    return prints.map { $0.uppercased() }
                }
                if granted.isEmpty {
                    report.add(name, .fail, "\(source) does not grant \(AssetLinks.handleAllURLs) to \(package)")
                } else if let expected, !granted.joined().isEmpty, !granted.flatMap({ $0 }).contains(expected) {
                    report.add(
                        name, .fail,
                        "\(source) lists \(package) with other fingerprints "
                            + "(\(granted.flatMap { $0 }.joined(separator: ", "))), not \(expected)"
                    )
                } else {
                    report.add(name, .pass, "\(source) grants \(package) with \(expected ?? "?")")
                }
                passkeys(domain, package: package, android: file, into: &report)
            }
        }
        return report
    }

    /// Upper-case hex bytes with colons, whatever form the fingerprint was given in.
    static func normalizedFingerprint(_ text: String) -> String {
        let hex = text.uppercased().filter { $0.isHexDigit }
        return stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return String(hex[start..<(hex.index(start, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex)])
        }.joined(separator: ":")
    }

    private func unreadable(_ path: String, _ reason: String) throws -> ProbeReport {
        StandardStreams.writeError("\(path): error: \(reason)\n")
        throw CommandFailure.unreadable
    }
}
