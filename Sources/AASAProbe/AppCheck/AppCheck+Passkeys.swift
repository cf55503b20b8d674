import AASASites
import AssociationKit

extension AppCheck {
    /// What `domain` needs for an app's passkeys besides its own platform's file
    /// (docs/association-files.md, "Passkeys"): the Android package granted the credentials
    /// when `package` is given, and the passkey files, checked when the site serves them.
    func passkeys(_ domain: String, package: String? = nil, android: AssetLinks? = nil, into report: inout ProbeReport)
    {
        let name = "passkeys:\(domain)"
        if let package, let android {
            if PasskeyAgreement.packagesSharingCredentials(android).contains(package) {
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
}
