/// The name of one value in a store: a relative, slash-separated path of safe components
/// (`[A-Za-z0-9._*-]`, none `.` or `..`, none starting with `.`), checked when it is made, so a
/// key can never leave the store's folder, name a hidden staging or lock file, or smuggle a
/// character into a query. For the folder engine the key is the path under the store's folder,
/// which keeps the `acme/` layout: `NAME/fullchain.pem`, `NAME/privkey.pem`, `NAME/issuer`,
/// `accounts/HOST-HASH.key`, `on-demand-names`.
public struct StoreKey: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let text: String

    /// Longer than any key the server makes (a name is at most 253 bytes), short enough for a
    /// path under any folder.
    public static let maximumLength = 1024

    /// Nil for a hostile or malformed key (empty, absolute, `..`, a hidden component, a byte
    /// outside the safe set, too long).
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    public var description: String { text }

    public static func < (lhs: StoreKey, rhs: StoreKey) -> Bool { lhs.text < rhs.text }

    /// The components, first to last.
    public var components: [Substring] { text.split(separator: "/") }

    /// The last component (`privkey.pem` of `NAME/privkey.pem`).
    public var lastComponent: Substring { components.last ?? Substring(text) }

    /// A private key (`….key`, `…privkey.pem`): written 0600 by the folder engine, encrypted
    /// by the PostgreSQL engine when a store key is given.
    public var isPrivate: Bool { text.hasSuffix(".key") || text.hasSuffix("privkey.pem") }

    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard isValidComponent(component) else { return false }
        }
        return true
    }

    /// One component: not empty, not starting with a dot (so not `.` or `..` either), at most
    /// 255 bytes (NAME_MAX), every byte safe.
    static func isValidComponent<Bytes: Collection<UInt8>>(_ component: Bytes) -> Bool {
        guard let first = component.first, first != UInt8(ascii: "."), component.count <= 255 else { return false }
        return component.allSatisfy(isSafe)
    }

    static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"),
            UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// A lock's name is one component (a certificate's name, `watches`).
    static func isValidLockName(_ name: String) -> Bool {
        isValidComponent(Array(name.utf8))
    }
}
