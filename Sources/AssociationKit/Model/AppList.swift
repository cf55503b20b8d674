/// `{ "apps": [ "<AppIDPrefix>.<BundleID>", … ] }`: the shape of `webcredentials`, `appclips`
/// and `activitycontinuation`.
public struct AppList: Sendable {
    public var apps: [Located<String>]
    public var origin: Origin
    /// `"apps": []` as written: an empty list, not one whose elements were all of a wrong
    /// type (those are reported once, as wrong types).
    public var isEmptyArray = false

    public init(apps: [Located<String>], origin: Origin) {
        self.apps = apps
        self.origin = origin
    }
}
