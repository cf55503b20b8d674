import AASASites
import AssociationKit
import Foundation

/// `check-app`'s checks: does every domain an app claims serve a valid file that lists it
/// (Apple's associated domains from its entitlements; Android's package and signing
/// fingerprint on the domains given)? The files come from a sites folder or over HTTPS
/// (`AppCheck+Files.swift`); `AASACommands/CheckAppCommand.swift` only reads the command line.
public struct AppCheck {
    /// Where the sites' files come from.
    public enum Files {
        /// A sites folder: the site a request for a domain would get.
        case sites(String)
        /// `https://DOMAIN/.well-known/NAME`, trusting `caFile` (else the system's store) and
        /// dialing `address` for every domain when given.
        case live(caFile: String?, address: (host: String, port: Int)?)
    }

    let files: Files
    /// The sites folder listed once, for every domain and file asked about (`.sites` only).
    let directory: Result<SiteDirectory, any Error>?

    public init(files: Files) {
        self.files = files
        if case .sites(let sites) = files {
            directory = Result { try SiteDirectory(root: URL(fileURLWithPath: sites)) }
        } else {
            directory = nil
        }
    }

    /// Apple suggests keeping the associated domains of one app to about 20–30.
    static let recommendedDomains = 30

    /// Every associated domain of `entitlements` (read from `path`) checked for `app`.
    public func apple(_ read: Entitlements, app: String, path: String) -> ProbeReport {
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

    func check(_ entry: AssociatedDomain, app: String, into report: inout ProbeReport) {
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

}
