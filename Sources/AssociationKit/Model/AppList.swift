/// `{ "apps": [ "<AppIDPrefix>.<BundleID>", … ] }`: the shape of `webcredentials`, `appclips`
/// and `activitycontinuation`.
public struct AppList: Sendable {
    public var apps: [Located<String>]
    public var origin: Origin

    public init(apps: [Located<String>], origin: Origin) {
        self.apps = apps
        self.origin = origin
    }
}
