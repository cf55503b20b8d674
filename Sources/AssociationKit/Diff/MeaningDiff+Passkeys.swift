extension MeaningDiff {
    /// The related origins added and removed, lower-cased; the same origins in another order
    /// are a change too, since browsers count labels in file order (docs/association-files.md,
    /// "Passkeys").
    public static func compare(_ old: WebAuthnFile, _ new: WebAuthnFile) -> [MeaningChange] {
        let before = old.origins.map { $0.value.lowercased() }
        let after = new.origins.map { $0.value.lowercased() }
        var changes = before.filter { !after.contains($0) }.map {
            MeaningChange("webauthn", .removed, "origin", old: $0)
        }
        changes += after.filter { !before.contains($0) }.map { MeaningChange("webauthn", .added, "origin", new: $0) }
        let kept = (before.filter(after.contains), after.filter(before.contains))
        if changes.isEmpty && kept.0 != kept.1 {
            changes.append(
                MeaningChange(
                    "webauthn", .moved, "origins", old: kept.0.joined(separator: ", "),
                    new: kept.1.joined(separator: ", ")))
        }
        return changes
    }

    /// `enroll` and `manage`, each added, removed or changed.
    public static func compare(_ old: PasskeyEndpoints, _ new: PasskeyEndpoints) -> [MeaningChange] {
        [("enroll", old.enroll?.value, new.enroll?.value), ("manage", old.manage?.value, new.manage?.value)]
            .compactMap { name, before, after in
                switch (before, after) {
                case (nil, nil): nil
                case (nil, let added?): MeaningChange("passkey-endpoints", .added, name, new: added)
                case (let removed?, nil): MeaningChange("passkey-endpoints", .removed, name, old: removed)
                case (let before?, let after?):
                    before == after ? nil : MeaningChange("passkey-endpoints", .changed, name, old: before, new: after)
                }
            }
    }
}
