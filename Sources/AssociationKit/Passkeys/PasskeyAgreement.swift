/// Whether a relying party's files agree on passkeys (docs/association-files.md, "Passkeys"):
/// notes, never errors, on what one platform is given and the other lacks. Apple's apps use a
/// domain's passkeys through `webcredentials`; Android's through an assetlinks.json statement
/// granting `get_login_creds` (or `handle_all_urls`) to the package.
public struct PasskeyAgreement: Sendable {
    /// Notes on the apple-app-site-association, the assetlinks.json and the passkey-endpoints.
    public var apple: [Diagnostic] = []
    public var android: [Diagnostic] = []
    public var endpoints: [Diagnostic] = []

    public init(apple: AssociationFile?, android: AssetLinks?, hasEndpoints: Bool) {
        let webCredentials = apple?.webCredentials.flatMap { $0.apps.isEmpty ? nil : $0 }
        let androidCredentials = android.map(Self.packagesSharingCredentials) ?? []
        let loginStatements = android?.statements.filter(Self.grantsLoginCredentials) ?? []
        if let webCredentials, androidCredentials.isEmpty {
            let apps = webCredentials.apps.map(\.value).joined(separator: ", ")
            self.apple.append(
                Diagnostic(
                    .webCredentialsWithoutAndroid,
                    "webcredentials lets \(apps) use this domain's passkeys on Apple's platforms, but no "
                        + "assetlinks.json statement grants \(AssetLinks.getLoginCredentials) (or handle_all_urls) "
                        + "to an Android package",
                    at: webCredentials.origin))
        }
        if webCredentials == nil, let statement = loginStatements.first {
            self.android.append(
                Diagnostic(
                    .loginCredentialsWithoutApple,
                    "this statement lets an Android app use this domain's passkeys, but the "
                        + "apple-app-site-association has no webcredentials apps for Apple's platforms",
                    at: statement.origin))
        }
        if hasEndpoints && webCredentials == nil && loginStatements.isEmpty {
            endpoints.append(
                Diagnostic(
                    .passkeyEndpointsWithoutCredentials,
                    "passkey-endpoints is served, but no app may use this domain's passkeys: neither webcredentials "
                        + "in the apple-app-site-association nor \(AssetLinks.getLoginCredentials) in assetlinks.json",
                    at: .start, pointer: ""))
        }
    }

    /// The packages an assetlinks.json lets use the domain's credentials (docs/association-files.md,
    /// "Passkeys"): `get_login_creds`, or `handle_all_urls`, which Credential Manager also accepts.
    public static func packagesSharingCredentials(_ file: AssetLinks) -> [String] {
        file.statements.compactMap { statement in
            guard case .androidApp(let package, _)? = statement.target,
                statement.relations.contains(where: {
                    $0 == AssetLinks.getLoginCredentials || $0 == AssetLinks.handleAllURLs
                })
            else { return nil }
            return package
        }
    }

    static func grantsLoginCredentials(_ statement: AssetLinksStatement) -> Bool {
        guard case .androidApp? = statement.target else { return false }
        return statement.relations.contains(AssetLinks.getLoginCredentials)
    }
}
