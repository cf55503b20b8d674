/// `/.well-known/webauthn` (W3C WebAuthn Level 3, §5.11 "Using Web Authentication across
/// related origins"): the origins that may use this domain's passkeys (docs/association-files.md,
/// "Passkeys").
public struct WebAuthnFile: Sendable {
    /// The valid origins as written, in file order.
    public var origins: [Located<String>] = []

    public init() {}

    public static let fileName = "webauthn"
    /// Browsers honour at least, and Chrome and Safari exactly, this many registrable-domain labels.
    public static let labelLimit = 5
}
