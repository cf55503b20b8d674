/// The `applinks` service: which URLs of the domain open which app.
public struct AppLinks: Sendable {
    public enum DetailsShape: Sendable { case array, dictionary, missing }

    /// Domain-level defaults (`applinks.defaults`, iOS 14+).
    public var defaults: ComponentRule?
    public var details: [AppLinksDetail] = []
    public var detailsShape: DetailsShape = .missing
    public var substitutionVariables: [SubstitutionVariable] = []
    /// The legacy `apps` array (must be empty; present in iOS 9–12 files).
    public var legacyApps: Located<[JSONValue]>?
    public var origin: Origin

    public init(origin: Origin) {
        self.origin = origin
    }
}
