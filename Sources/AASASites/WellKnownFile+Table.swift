import AssociationKit

extension WellKnownFile {
    /// The row of each kind. A switch, so a kind without a row does not compile.
    public static func row(_ kind: FileCheck.Kind) -> WellKnownFile {
        let json = "application/json"
        let largest = AssociationFileValidator.maximumSize
        switch kind {
        case .apple:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/apple-app-site-association", "/apple-app-site-association"],
                contentType: json, sizeLimit: largest, cachePolicy: .server, probed: true, diffed: true,
                checkedByApp: true, sharedAcrossSites: false
            ) { input in
                let report =
                    input.signing.map { AssociationFileValidator.validate(input.content, signed: $0) }
                    ?? AssociationFileValidator.validate(input.content)
                var result = Report(report.diagnostics, report.omitted, parsed: report.file != nil)
                (result.appleFile, result.signedContent) = (report.file, report.content)
                return result
            }
        case .android:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/assetlinks.json"], contentType: json, sizeLimit: largest,
                cachePolicy: .server, probed: true, diffed: true, checkedByApp: true, sharedAcrossSites: false
            ) { input in
                let report = AssetLinksValidator.validate(input.content)
                var result = Report(report.diagnostics, report.omitted, parsed: report.file != nil)
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
                return Report(report.diagnostics, report.omitted, parsed: report.file != nil)
            }
        case .passkeyEndpoints:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/passkey-endpoints"], contentType: json, sizeLimit: largest,
                cachePolicy: .fixed("no-cache"), probed: true, diffed: true, checkedByApp: true,
                sharedAcrossSites: false
            ) { input in
                let report = PasskeyValidator.validateEndpoints(input.content)
                return Report(report.diagnostics, report.omitted, parsed: report.file != nil)
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
                Report(PlainTextValidator.validateText(input.content, limit: limit, name: kind.rawValue))
            }
        case .securityTxt:
            return WellKnownFile(
                kind: kind, paths: ["/.well-known/security.txt"], contentType: "text/plain; charset=utf-8",
                sizeLimit: largest, cachePolicy: .fixed("max-age=3600"), probed: true, diffed: false,
                checkedByApp: false, sharedAcrossSites: false
            ) { input in
                Report(SecurityTxtValidator.validate(input.content, now: input.now, limit: largest))
            }
        case .wellKnownFolder:
            // Any other file of the site's `well-known/` folder, at `/.well-known/NAME`.
            return WellKnownFile(
                kind: kind, paths: [], contentType: "application/octet-stream", sizeLimit: largest,
                cachePolicy: .server, probed: false, diffed: false, checkedByApp: false, sharedAcrossSites: true
            ) { input in
                Report(PlainTextValidator.validateFolderFile(input.content, limit: largest, name: input.name))
            }
        case .expectations:
            return WellKnownFile(
                kind: kind, paths: [], contentType: json, sizeLimit: largest, cachePolicy: .server, probed: false,
                diffed: false, checkedByApp: false, sharedAcrossSites: false
            ) { input in
                let site = input.siblings
                let report = ExpectationChecker.check(
                    input.content, apple: site?.apple, android: site?.android, domain: input.domain)
                return Report(report.diagnostics, report.omitted, parsed: true)
            }
        case .fallback:
            return WellKnownFile(
                kind: kind, paths: [], contentType: json, sizeLimit: largest, cachePolicy: .server, probed: false,
                diffed: false, checkedByApp: false, sharedAcrossSites: false
            ) { input in
                let report = FallbackValidator.validate(input.content)
                var result = Report(report.diagnostics, report.omitted, parsed: report.file != nil)
                result.fallbackFile = report.file
                return result
            }
        }
    }

    /// Every row, in `FileCheck.Kind`'s order (the order a site folder's files are read in).
    public static let all = FileCheck.Kind.allCases.map(row)

    /// The rows served at fixed paths, in the order of their slots in a `SiteContent`.
    public static let served = all.filter(\.isServed)

    /// The row of a file of the site's `well-known/` folder.
    public static let folder = row(.wellKnownFolder)

    /// The folder in a site folder whose files are served at `/.well-known/NAME`.
    public static let folderName = "well-known"

    /// A `well-known/` file's `Content-Type`, by its extension.
    public static func contentType(forName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "text/plain" }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": return "application/json"
        case "txt": return "text/plain"
        default: return "application/octet-stream"
        }
    }

    /// True when `name` may be served from `well-known/`: a plain file name, not hidden (a
    /// ConfigMap's `..data`), and not one a row serves at a fixed path (that file belongs in
    /// the site folder itself).
    public static func isServable(folderFile name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/")
            && !served.contains { $0.paths.contains("/.well-known/" + name) }
    }
}
