/// `/.well-known/passkey-endpoints` (W3C "A Well-Known URL for Passkey Endpoints"): where a
/// password manager sends people to create (`enroll`) or manage (`manage`) a passkey.
public struct PasskeyEndpoints: Sendable {
    public var enroll: Located<String>?
    public var manage: Located<String>?

    public init() {}

    public static let fileName = "passkey-endpoints"
}
