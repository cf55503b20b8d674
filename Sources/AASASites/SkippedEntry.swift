/// An entry of the sites folder that looks like a site but is not served: why, typed, so a
/// load reports it under its own code (a link not followed, a folder name that is no host,
/// two folders for one host).
public struct SkippedEntry: Sendable, Equatable {
    public var code: LoadProblem.Code
    /// Why, in a sentence, with the fix.
    public var reason: String

    public init(_ code: LoadProblem.Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
