import AASASites

/// A served file deleted while its site folder stays: its last copy keeps serving until
/// `servedUntil` (the deleted-file grace), so a deploy that deletes a file and writes it again
/// a moment later is never a 404 that Apple's CDN would keep (docs/serving.md, "Deleted files").
public struct DeletedFile: Sendable, Hashable {
    public let kind: FileCheck.Kind
    /// Its name in the site folder (`FileCheck.name`): the kind's, or `well-known/NAME`.
    public let name: String
    /// Seconds since the epoch: when a load first found the file gone.
    public let deletedAt: Int
    /// Seconds since the epoch: when the last copy stops serving.
    public let servedUntil: Int
}
