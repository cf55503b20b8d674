/// One entry of `applinks.details`: the apps it names and the rules they share.
public struct AppLinksDetail: Sendable {
    /// The index of the entry in `details` (its position in sorted key order for the
    /// pre-release dictionary shape).
    public var index: Int
    /// `appID` (legacy) then the `appIDs` elements, in file order.
    public var appIDs: [Located<String>] = []
    public var hasAppID = false
    /// The `appID` string as written (also the first of `appIDs`).
    public var legacyAppID: Located<String>?
    public var hasAppIDs = false
    /// `"appIDs": []` as written (see `AppList.isEmptyArray`).
    public var appIDsIsEmptyArray = false
    /// App-level defaults (`details[].defaults`).
    public var defaults: ComponentRule?
    /// `components` (iOS 13+); `nil` when the key is absent.
    public var components: [ComponentRule]?
    /// Legacy `paths`; `nil` when the key is absent.
    public var paths: [LegacyPath]?
    public var origin: Origin

    public init(index: Int, origin: Origin) {
        self.index = index
        self.origin = origin
    }

    /// iOS 13 and later ignore `paths` when `components` is present (WWDC19 717).
    public var usesComponents: Bool { components != nil }
}
