import AASASignedData
import AASASites
import AASASystem
import AASATransport
import AssociationKit
import Foundation

extension AppCheck {
    struct Failure: Error {
        var message: String
    }

    /// The decoded apple-app-site-association of `domain` and where it came from.
    func appleFile(for domain: String) -> Result<(AssociationFile, String), Failure> {
        switch fileBytes(for: domain, name: FileCheck.Kind.apple.rawValue) {
        case .failure(let failure): return .failure(failure)
        case .success(let (bytes, source)):
            let signing = SignedFileContext(
                reader: CMSReader.reader(trusting: .system), domain: domain.lowercased(), now: Int(time(nil)))
            let validated = AssociationFileValidator.validate(bytes, signed: signing)
            guard validated.isValid, let file = validated.file else {
                return .failure(Failure(message: "\(source) is invalid (run validate for the details)"))
            }
            return .success((file, source))
        }
    }

    /// A site's file: from the sites directory (the site a request for `domain` would get),
    /// or fetched from `https://domain/.well-known/NAME`.
    func fileBytes(for domain: String, name: String) -> Result<([UInt8], String), Failure> {
        switch files {
        case .sites(let sites): siteFile(sites, domain: domain, name: name)
        case .live(let caFile, let address): liveFile(domain: domain, name: name, caFile: caFile, address: address)
        }
    }

    private func siteFile(_ sites: String, domain: String, name: String) -> Result<([UInt8], String), Failure> {
        let directory: SiteDirectory
        do {
            directory = try self.directory?.get() ?? SiteDirectory(root: URL(fileURLWithPath: sites))
        } catch {
            return .failure(Failure(message: "\(sites) is not a readable sites directory: \(error)"))
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

    private func liveFile(
        domain: String, name: String, caFile: String?, address: (host: String, port: Int)?
    ) -> Result<([UInt8], String), Failure> {
        guard !domain.hasPrefix("*.") else {
            return .failure(Failure(message: "a wildcard domain cannot be fetched live; check one of its subdomains"))
        }
        let client = HTTPSClient(caFile: caFile, timeout: 10)
        let address = address ?? (domain, 443)
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

}
