import AssociationKit

extension FileCheck {
    /// The kinds of file a site folder may hold; what each is, where it is served and how it
    /// is checked is its row of the one table (`row`, below).
    public enum Kind: String, Sendable, CaseIterable {
        case apple = "apple-app-site-association"
        case android = "assetlinks.json"
        /// WebAuthn's related origins (`PasskeyValidator`); served at `/.well-known/webauthn`.
        case webauthn = "webauthn"
        /// Where password managers create and manage passkeys; served at
        /// `/.well-known/passkey-endpoints`.
        case passkeyEndpoints = "passkey-endpoints"
        /// Apple Pay on the web's proof of the merchant's domain, served byte-exact.
        case applePay = "apple-developer-merchantid-domain-association"
        /// RFC 9116's contact file (`SecurityTxtValidator`).
        case securityTxt = "security.txt"
        /// A file of the site's `well-known/` folder, served at `/.well-known/NAME`.
        case wellKnownFolder = "well-known"
        /// URLs and the decision each app must get (`ExpectationChecker`); never served.
        case expectations = "expectations.json"
        /// What people without the app get for the site's other paths (`FallbackValidator`);
        /// never served.
        case fallback = "fallback.json"

        /// The kinds a site serves at fixed paths, each as a `PreparedFile`.
        public static let served: [Kind] = WellKnownFile.served.map(\.kind)
        /// The files a site folder may hold under their kind's name, in the order they are read
        /// (the association files first: what is checked against them comes after).
        public static let inFolder: [Kind] = allCases.filter { $0 != .wellKnownFolder }
    }
}

extension FileCheck.Kind {
    /// Its row of the one table of kinds, made once (`WellKnownFile.all`).
    public var file: WellKnownFile { WellKnownFile.all[Self.allCases.firstIndex(of: self) ?? 0] }

    /// The table of kinds, one row per kind: a switch, so a kind without a row does not
    /// compile. A new kind is a case above, its row here, its validator (AssociationKit) and
    /// its tests.
    var row: WellKnownFile {
        let kind = self
        let json = "application/json"
        let largest = AssociationFileValidator.maximumSize
        switch self {
        case .apple:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/apple-app-site-association", "/apple-app-site-association"],
                contentType: json, sizeLimit: largest, cachePolicy: .server, probed: true, diffed: true,
                checkedByApp: true, sharedAcrossSites: false
            ) { input in
                let report =
                    input.signing.map { AssociationFileValidator.validate(input.content, signed: $0) }
                    ?? AssociationFileValidator.validate(input.content)
                var result = WellKnownFile.Report(report.diagnostics, report.omitted, parsed: report.file != nil)
                (result.appleFile, result.signedContent) = (report.file, report.content)
                return result
            }
        case .android:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/assetlinks.json"], contentType: json, sizeLimit: largest,
                cachePolicy: .server, probed: true, diffed: true, checkedByApp: true, sharedAcrossSites: false
            ) { input in
                let report = AssetLinksValidator.validate(input.content)
                var result = WellKnownFile.Report(report.diagnostics, report.omitted, parsed: report.file != nil)
                result.androidFile = report.file
                return result
            }
        case .webauthn:
            // Revalidated (no-cache with the ETag): an origin added or removed reaches browsers at once.
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/webauthn"], contentType: json, sizeLimit: largest,
                cachePolicy: .fixed("no-cache"), probed: true, diffed: true, checkedByApp: true,
                sharedAcrossSites: false
            ) { input in
                let report = PasskeyValidator.validateWebAuthn(input.content, suffixes: PublicSuffixListFile.system)
                return WellKnownFile.Report(report.diagnostics, report.omitted, parsed: report.file != nil)
            }
        case .passkeyEndpoints:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/passkey-endpoints"], contentType: json, sizeLimit: largest,
                cachePolicy: .fixed("no-cache"), probed: true, diffed: true, checkedByApp: true,
                sharedAcrossSites: false
            ) { input in
                let report = PasskeyValidator.validateEndpoints(input.content)
                return WellKnownFile.Report(report.diagnostics, report.omitted, parsed: report.file != nil)
            }
        case .applePay:
            let limit = 64 * 1024
            return WellKnownFile(
                kind: kind,
                paths: [
                    "/.well-known/apple-developer-merchantid-domain-association",
                    "/.well-known/apple-developer-merchantid-domain-association.txt",
                ], contentType: "text/plain", sizeLimit: limit, cachePolicy: .fixed("max-age=3600"), probed: true,
                diffed: false, checkedByApp: false, sharedAcrossSites: true
            ) { input in
                WellKnownFile.Report(PlainTextValidator.validateText(input.content, limit: limit, name: kind.rawValue))
            }
        case .securityTxt:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/security.txt"], contentType: "text/plain; charset=utf-8",
                sizeLimit: largest, cachePolicy: .fixed("max-age=3600"), probed: true, diffed: false,
                checkedByApp: false, sharedAcrossSites: false
            ) { input in
                WellKnownFile.Report(SecurityTxtValidator.validate(input.content, now: input.now, limit: largest))
            }
        case .wellKnownFolder:
            // Any other file of the site's `well-known/` folder, at `/.well-known/NAME`.
            return WellKnownFile(
                kind: kind, paths: [], contentType: "application/octet-stream", sizeLimit: largest,
                cachePolicy: .server, probed: false, diffed: false, checkedByApp: false, sharedAcrossSites: true
            ) { input in
                WellKnownFile.Report(
                    PlainTextValidator.validateFolderFile(input.content, limit: largest, name: input.name))
            }
        case .expectations:
            return WellKnownFile(
                kind: kind, paths: [], contentType: json, sizeLimit: largest, cachePolicy: .server, probed: false,
                diffed: false, checkedByApp: false, sharedAcrossSites: false
            ) { input in
                let site = input.siblings
                let report = ExpectationChecker.check(
                    input.content, apple: site?.apple, android: site?.android, domain: input.domain)
                return WellKnownFile.Report(report.diagnostics, report.omitted, parsed: true)
            }
        case .fallback:
            return WellKnownFile(
                kind: kind, paths: [], contentType: json, sizeLimit: largest, cachePolicy: .server, probed: false,
                diffed: false, checkedByApp: false, sharedAcrossSites: false
            ) { input in
                let report = FallbackValidator.validate(input.content)
                var result = WellKnownFile.Report(report.diagnostics, report.omitted, parsed: report.file != nil)
                result.fallbackFile = report.file
                return result
            }
        }
    }
}
