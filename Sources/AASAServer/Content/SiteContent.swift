import AssociationKit

/// What one site folder serves.
public final class SiteContent: Sendable {
    public let name: String
    public let apple: PreparedFile?
    public let android: PreparedFile?
    /// The Apple file compiled for the status page's URL tester, built at load time.
    public let matcher: AssociationMatcher?

    init(name: String, apple: PreparedFile?, android: PreparedFile?) {
        self.name = name
        self.apple = apple
        self.android = android
        matcher = apple.flatMap { AssociationFileValidator.validate($0.identity.body).file }.map(AssociationMatcher.init(file:))
    }
}
