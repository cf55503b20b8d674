/// An `apple-app-site-association` file as Apple reads it: one optional object per service.
/// Built by `AssociationFileDecoder`, which also reports every shape problem on the way.
public struct AssociationFile: Sendable {
    public var appLinks: AppLinks?
    public var webCredentials: AppList?
    public var appClips: AppList?
    public var activityContinuation: AppList?
    /// Top-level keys that name no service Apple defines, kept for diagnostics.
    public var unknownServices: [Located<String>] = []

    public init() {}

    /// The services Apple defines (the Associated Domains entitlement's four; docs/association-files.md, "1. The Apple file").
    public static let serviceNames = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
}
