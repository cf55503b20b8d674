/// Where a fetch failed, and why.
public struct HTTPClientFailure: Error, Sendable, CustomStringConvertible {
    public enum Stage: String, Sendable { case resolve, tcp, tls, http }
    public var stage: Stage
    public var message: String
    public var description: String { message }
}
