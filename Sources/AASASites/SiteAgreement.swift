import AssociationKit
import Foundation

/// What a site's files say about each other, beside each file's own check: its two
/// association files compared (`PlatformComparison`, `XPL0xx`, on its assetlinks.json) and how
/// its passkey pieces agree (`PasskeyAgreement`, on the file that has what the other lacks).
/// `validate` adds it to a folder's checks and the status page to a site's files, so both
/// show the same notes for the same file (docs/association-files.md, "Passkeys").
public struct SiteAgreement: Sendable {
    /// The comparison's findings by file, merged with the file's own in location order.
    public private(set) var comparison: [FileCheck.Kind: [Diagnostic]] = [:]
    /// The passkey notes by file, after the file's own.
    public private(set) var passkeys: [FileCheck.Kind: [Diagnostic]] = [:]

    /// `apple` and `android` are the site's valid files, decoded; `folder` names the site (its
    /// host is the one the messages' URLs are shown on). Without `comparing`, the passkey notes
    /// only (the comparison costs milliseconds; the status page bounds how many a view makes).
    public init(
        apple: AssociationFile?, android: AssetLinks?, hasEndpoints: Bool, folder: String, comparing: Bool = true
    ) {
        if comparing, let apple, let android {
            comparison[.android] = PlatformComparison.compare(
                apple: apple, android: android, host: Self.sampleHost(folder: folder))
        }
        let agreement = PasskeyAgreement(apple: apple, android: android, hasEndpoints: hasEndpoints)
        if apple != nil { passkeys[.apple] = agreement.apple }
        if android != nil { passkeys[.android] = agreement.android }
        if hasEndpoints { passkeys[.passkeyEndpoints] = agreement.endpoints }
    }

    /// `check` with what the site's other files say about it.
    public func noting(_ check: FileCheck) -> FileCheck {
        var noted = check
        (noted.diagnostics, noted.omitted) = noting(check.diagnostics, omitted: check.omitted, of: check.kind)
        return noted
    }

    /// A file's own diagnostics with what the site's other files say about it: the comparison's
    /// in location order, past `OmittedDiagnostics.limit` in all counted and not kept, as the
    /// file's own findings are; then the passkey notes.
    public func noting(
        _ own: [Diagnostic], omitted: OmittedDiagnostics, of kind: FileCheck.Kind
    ) -> ([Diagnostic], OmittedDiagnostics) {
        var (diagnostics, omitted) = (own, omitted)
        if let found = comparison[kind], !found.isEmpty {
            let all = (own + found).sortedByLocation()
            diagnostics = Array(all.prefix(OmittedDiagnostics.limit))
            for diagnostic in all.dropFirst(OmittedDiagnostics.limit) { omitted.count(diagnostic.severity) }
        }
        return (diagnostics + (passkeys[kind] ?? []), omitted)
    }

    /// The checks of each site folder among `checks` with their agreement noted: the comparison
    /// where both association files of a folder are valid, the passkey notes where it serves a
    /// passkey file or a credential relation.
    public static func noting(_ checks: [FileCheck]) -> [FileCheck] {
        var folders: [String: [Int]] = [:]
        for (index, check) in checks.enumerated() {
            folders[(check.path as NSString).deletingLastPathComponent, default: []].append(index)
        }
        var noted = checks
        for (folder, indices) in folders {
            let valid = { (kind: FileCheck.Kind) in indices.first { checks[$0].kind == kind && checks[$0].isValid } }
            let agreement = SiteAgreement(
                apple: valid(.apple).flatMap { checks[$0].appleFile },
                android: valid(.android).flatMap { checks[$0].androidFile },
                hasEndpoints: indices.contains { checks[$0].kind == .passkeyEndpoints }, folder: folder)
            for index in indices { noted[index] = agreement.noting(checks[index]) }
        }
        return noted
    }

    /// The host the URLs in messages are shown on: the site folder's name, a name below a
    /// wildcard site's, or `example.com` for a folder not named as a host.
    public static func sampleHost(folder: String) -> String {
        let name = (folder as NSString).lastPathComponent
        guard let key = HostName.siteKey(folder: name) else { return "example.com" }
        return key.hasPrefix("*.") ? "www." + key.dropFirst(2) : key
    }
}
