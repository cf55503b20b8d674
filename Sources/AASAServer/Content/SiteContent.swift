import AssociationKit

/// What one site folder serves.
public final class SiteContent: Sendable {
    public let name: String
    public let apple: PreparedFile?
    public let android: PreparedFile?
    /// The Apple file compiled for the status page's URL tester, built at load time from the
    /// file the load already decoded.
    public let matcher: AssociationMatcher?

    init(name: String, apple: PreparedFile?, android: PreparedFile?, appleFile: AssociationFile?) {
        self.name = name
        self.apple = apple
        self.android = android
        matcher = appleFile.map(AssociationMatcher.init(file:))
    }
}
