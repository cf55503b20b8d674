import AssociationKit
import Foundation

extension FileCheck {
    /// The files of each site folder among `checks` with the notes of `PasskeyAgreement` added
    /// (docs/association-files.md, "Passkeys"): for a folder that serves a passkey file or a
    /// credential relation, what one platform is given and the other lacks.
    public static func notingPasskeyAgreement(_ checks: [FileCheck]) -> [FileCheck] {
        var folders: [String: [Int]] = [:]
        for (index, check) in checks.enumerated() {
            folders[(check.path as NSString).deletingLastPathComponent, default: []].append(index)
        }
        var noted = checks
        for indices in folders.values {
            let valid = { (kind: Kind) in indices.first { checks[$0].kind == kind && checks[$0].isValid } }
            let endpoints = indices.first { checks[$0].kind == .passkeyEndpoints }
            let agreement = PasskeyAgreement(
                apple: valid(.apple).flatMap { checks[$0].appleFile },
                android: valid(.android).flatMap {
                    checks[$0].androidFile
                }, hasEndpoints: endpoints != nil)
            for (kind, notes) in [(Kind.apple, agreement.apple), (.android, agreement.android)] where !notes.isEmpty {
                if let index = valid(kind) { noted[index].diagnostics += notes }
            }
            if let endpoints, !agreement.endpoints.isEmpty { noted[endpoints].diagnostics += agreement.endpoints }
        }
        return noted
    }
}
