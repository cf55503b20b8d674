extension PublicSuffixList {
    /// Why the list could not be had (the file missing or unreadable), said where it was needed.
    public struct Unavailable: Error, Sendable, Equatable {
        public var reason: String

        public init(reason: String) { self.reason = reason }
    }
}
