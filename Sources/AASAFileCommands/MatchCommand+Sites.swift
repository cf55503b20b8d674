import AASASites
import AssociationKit
import Foundation

extension MatchCommand {
    /// What `match --sites` reads for the site a URL reaches: the site's files, each once.
    struct SiteAnswer {
        /// `--domain`, else the URL's host: the file's domain for the host check.
        var domain: String
        var apple: MatchDecider?
        var android: MatchDecider?
        var fallback: FallbackPlan?
    }

    /// For each URL, the site that answers it, chosen by `--domain` or else by the URL's host,
    /// as the server chooses by the Host header; URLs may be on any number of hosts.
    func siteAnswers(sites: String) throws -> [SiteAnswer] {
        guard let directory = try? SiteDirectory(root: URL(fileURLWithPath: sites)) else {
            StandardStreams.writeError("\(sites): error: not a readable sites directory\n")
            throw CommandFailure.unreadable
        }
        var read: [String: SiteAnswer] = [:]
        var answers: [SiteAnswer] = []
        for text in urls {
            let host = try domain ?? MatchURL.fromArgument(text).host
            guard let site = directory.site(forHost: host) else {
                let reason = HostName.normalize(host).flatMap { directory.skipped[$0]?.reason }
                StandardStreams.writeError(
                    "\(sites): error: "
                        + (reason ?? "no site folder serves \(host) (no exact folder, no matching *.domain folder)")
                        + "\n")
                throw CommandFailure.unreadable
            }
            // A wildcard site answers many hosts; a signed file's signer is checked per host.
            let key = site.folderPath + "\n" + host
            if let answer = read[key] {
                answers.append(answer)
                continue
            }
            let answer = try siteAnswer(folder: site.folder, domain: host)
            read[key] = answer
            answers.append(answer)
        }
        return answers
    }

    /// The site folder's files: both, or with `--android` its assetlinks.json, which must then
    /// be there.
    func siteAnswer(folder: URL, domain: String) throws -> SiteAnswer {
        let applePath = folder.appendingPathComponent(SiteDirectory.appleFileName).path
        let androidPath = folder.appendingPathComponent(SiteDirectory.androidFileName).path
        func load(_ path: String, required: Bool) throws -> MatchDecider? {
            guard required || FileManager.default.fileExists(atPath: path) else { return nil }
            return try MatchDecider(path: path, domain: domain)
        }
        return SiteAnswer(
            domain: domain, apple: android ? nil : try load(applePath, required: false),
            android: try load(androidPath, required: android), fallback: fallbackPlan(beside: applePath))
    }
}
