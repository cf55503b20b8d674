import AASASites
import AssociationKit

extension DiffCommand {
    /// The meaning changes between two `webauthn` or two `passkey-endpoints` files (no URL
    /// decides anything in them).
    func passkeyChanges(
        _ kind: FileCheck.Kind, _ oldBytes: [UInt8], _ newBytes: [UInt8], newName: String
    ) throws -> [MeaningChange] {
        if kind == .webauthn {
            // Only the origins are compared: their labels need not be counted here.
            let unused = Result<PublicSuffixList, PublicSuffixList.Unavailable>.failure(.init(reason: ""))
            let before = try decoded(
                PasskeyValidator.validateWebAuthn(oldBytes, suffixes: unused).file, old, "webauthn")
            let after = try decoded(
                PasskeyValidator.validateWebAuthn(newBytes, suffixes: unused).file, newName, "webauthn")
            return MeaningDiff.compare(before, after)
        }
        let before = try decoded(PasskeyValidator.validateEndpoints(oldBytes).file, old, "passkey-endpoints")
        let after = try decoded(PasskeyValidator.validateEndpoints(newBytes).file, newName, "passkey-endpoints")
        return MeaningDiff.compare(before, after)
    }
}
