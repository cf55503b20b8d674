/// Why a store call failed. The text names the store's place without a password and never
/// holds a value.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store cannot be reached now (connection refused or lost, the server shutting down, a
    /// timeout); another try later may work.
    case unreachable(String)
    /// The store refused the call for good: a hostile key or lock name, a schema newer than this
    /// server, a value that cannot be decrypted, a setting that does not apply.
    case refused(String)
    /// The call reached the store and failed there (a file system error, a failed query).
    case io(String)

    public var description: String {
        switch self {
        case .unreachable(let text): "store unreachable: \(text)"
        case .refused(let text): "store refused: \(text)"
        case .io(let text): "store error: \(text)"
        }
    }

    public var detail: String {
        switch self {
        case .unreachable(let text), .refused(let text), .io(let text): text
        }
    }
}
