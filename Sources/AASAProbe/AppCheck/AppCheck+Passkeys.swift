import AASASites
import AssociationKit

extension AppCheck {
    /// What `domain` needs for an app's passkeys besides its own platform's file
    /// (docs/association-files.md, "Passkeys"): the Android package granted the credentials
    /// when `package` is given, and the passkey files, checked when the site serves them.
    /// `fingerprint` is the app's, when known: a grant to the package signed otherwise is none.
    func passkeys(
        _ domain: String, package: String? = nil, fingerprint: String? = nil, android: AssetLinks? = nil,
        into report: inout ProbeReport
    ) {
        let name = "passkeys:\(domain)"
        if let package, let android {
            let printed = Self.credentialFingerprints(android, package: package)
            if let fingerprint, !printed.isEmpty, !printed.contains(fingerprint) {
                report.add(
                    name, .fail,
                    "assetlinks.json lets \(package) use \(domain)'s passkeys only when signed with "
                        + "\(printed.joined(separator: ", ")), not \(fingerprint): Credential Manager will not offer "
                        + "them in this app")
            } else if PasskeyAgreement.packagesSharingCredentials(android).contains(package) {
                report.add(
                    name, .pass,
                    "assetlinks.json lets \(package) use \(domain)'s passkeys (\(AssetLinks.getLoginCredentials) or "
                        + "handle_all_urls)")
            } else {
                report.add(
                    name, .warn,
                    "assetlinks.json grants neither \(AssetLinks.getLoginCredentials) nor handle_all_urls to "
                        + "\(package): Credential Manager will not offer \(domain)'s passkeys in the app")
            }
        }
        // The kinds the table marks for check-app, besides the two association files.
        for row in WellKnownFile.served where row.checkedByApp && row.kind != .apple && row.kind != .android {
            let kind = row.kind
            guard case .success(let (bytes, source)) = fileBytes(for: domain, name: kind.rawValue) else {
                let use =
                    kind == .webauthn
                    ? "needed only when pages on other domains use \(domain)'s passkeys"
                    : kind == .passkeyEndpoints
                        ? "optional: tells password managers where to create and manage passkeys" : "optional"
                report.add(name, .note, "no \(kind.rawValue) (\(use))")
                continue
            }
            let valid = FileCheck.check(bytes, as: kind).isValid
            report.add(
                name, valid ? .pass : .fail,
                valid ? "\(source) is valid" : "\(source) is invalid (run validate for the details)")
        }
    }

    /// The fingerprints of the statements granting `package` the credentials (get_login_creds or
    /// handle_all_urls), upper-case.
    static func credentialFingerprints(_ file: AssetLinks, package: String) -> [String] {
        file.statements.flatMap { statement -> [String] in
            guard
                statement.relations.contains(AssetLinks.getLoginCredentials)
                    || statement.relations.contains(AssetLinks.handleAllURLs),
                case .androidApp(package, let prints)? = statement.target
            else { return [] }
            return prints.map { $0.uppercased() }
        }
    }
}
