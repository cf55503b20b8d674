/// What `serve --acme on` runs with (README, "Automatic certificates").
public struct ACMESettings: Sendable, Equatable {
    /// Let's Encrypt's production directory; its staging one is
    /// https://acme-staging-v02.api.letsencrypt.org/directory.
    public static let letsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"

    public var enabled = false
    public var directory = ACMESettings.letsEncrypt
    public var email: String?
    /// An extra CA to trust when talking to the ACME server (private CAs, tests).
    public var directoryCA: String?
    /// Preference order; nil means every type the listeners allow.
    public var challenges: [ChallengeType]?
    public var onDemand = true
    /// New on-demand names per hour, all wildcard sites together.
    public var onDemandPerHour = 10
    /// New on-demand names per registered domain in any seven days (docs/acme.md,
    /// "On-demand budget"): well under Let's Encrypt's 50 certificates per registered
    /// domain per week, so renewals and exact sites keep the rest.
    public var onDemandWeekly = 20

    public init() {}

    /// Orders in flight at once, all names together: a few, so one slow validation never
    /// holds up the rest, and never a burst at the CA.
    public static let concurrentOrders = 2

    /// Failed orders after which an on-demand name is dropped until a handshake asks again
    /// after a cool-down of `onDemandCoolDown` seconds, doubling with each drop to a day.
    public static let onDemandFailures = 3
    public static let onDemandCoolDown = 3600
}
