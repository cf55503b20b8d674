import AASATransport

/// What `serve --acme on` runs with (docs/acme.md, "Automatic certificates").
public struct ACMESettings: Sendable, Equatable {
    /// Let's Encrypt's production directory; its staging one is
    /// https://acme-staging-v02.api.letsencrypt.org/directory.
    public static let letsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"

    public var enabled = false
    /// The one-issuer form (`--acme-directory` and the flags beside it); when given, it wins
    /// over `issuerList`.
    public var directory: String?
    /// An extra CA to trust when talking to the ACME server (private CAs, tests).
    public var directoryCA: String?
    public var eabKid: String?
    public var eabHmacKeyFile: String?
    public var profile: String?
    /// `acmeIssuers` of the config file: CAs tried in order (docs/acme.md, "Issuers in order").
    public var issuerList: [ACMEIssuerSettings]?
    public var email: String?
    /// Preference order; nil means every type the listeners allow.
    public var challenges: [ChallengeType]?
    public var onDemand = true
    /// New on-demand names per hour, all wildcard sites together.
    public var onDemandPerHour = 10
    /// New on-demand names per registered domain in any seven days (docs/acme.md,
    /// "On-demand budget"): well under Let's Encrypt's 50 certificates per registered
    /// domain per week, so renewals and exact sites keep the rest.
    public var onDemandWeekly = 20
    /// Patterns an on-demand name must match (`--acme-on-demand-names`); empty: any name of a
    /// wildcard site.
    public var onDemandNames: [OnDemandNamePattern] = []
    /// Caddy's `ask` (`--acme-on-demand-ask`): `GET URL?domain=NAME` must answer 2xx before an
    /// on-demand name is ordered (`OnDemandAsk`); nil: not asked.
    public var onDemandAsk: String?
    /// A PEM CA trusted besides the system's when the ask URL is https (`--acme-on-demand-ask-ca`).
    public var onDemandAskCA: String?
    /// The check before each order (`Preflight`, docs/acme.md "Pre-flight"): on by default.
    public var preflight = true
    /// The DNS server the check asks (`ADDR:PORT`); nil: the system's resolver.
    public var preflightResolver: SocketAddress?
    /// The port the check's HTTP request goes to: where the CA connects for HTTP-01.
    public var preflightPort = 80
    /// Sent to the CA (RFC 8555 §6.1 asks clients for one); the server names its version.
    public var userAgent = "aasa-server acme"

    public init() {}

    /// The CAs to order from, in order: the one-issuer form when its directory is given,
    /// else `acmeIssuers`, else Let's Encrypt with the one-issuer form's other settings.
    public var issuers: [ACMEIssuerSettings] {
        if directory == nil, let issuerList, !issuerList.isEmpty { return issuerList }
        return [
            ACMEIssuerSettings(
                directory: directory ?? Self.letsEncrypt, ca: directoryCA, eabKid: eabKid,
                eabHmacKeyFile: eabHmacKeyFile, profile: profile)
        ]
    }

    /// Why these settings cannot run, or nil.
    public var issuersProblem: String? {
        if let issuerList, directory == nil {
            if issuerList.isEmpty { return "acmeIssuers lists no issuer" }
            if directoryCA != nil || eabKid != nil || eabHmacKeyFile != nil || profile != nil {
                return "--acme-directory-ca, --acme-eab-kid, --acme-eab-hmac-key-file and --acme-profile belong to "
                    + "--acme-directory; with acmeIssuers give them per issuer (ca, eabKid, eabHmacKeyFile, profile)"
            }
        }
        let list = issuers
        if let problem = list.lazy.compactMap(\.problem).first { return problem }
        if Set(list.map(\.directory)).count != list.count { return "acmeIssuers lists a directory twice" }
        return nil
    }

    /// The start-up warning when on-demand names need nobody's yes: anyone who can point a
    /// name under a wildcard site at the server (wildcard DNS does it) spends the budget.
    public var onDemandWarning: String? {
        guard enabled, onDemand, onDemandNames.isEmpty, onDemandAsk == nil else { return nil }
        return "acme: on-demand names are anyone's to spend: any name a wildcard site serves is ordered, up to "
            + "--acme-on-demand-weekly per registered domain; allow names with --acme-on-demand-names or "
            + "--acme-on-demand-ask, or turn --acme-on-demand off"
    }

    /// Orders in flight at once, all names together: a few, so one slow validation never
    /// holds up the rest, and never a burst at the CA.
    public static let concurrentOrders = 2

    /// Failed orders after which an on-demand name is dropped until a handshake asks again
    /// after a cool-down of `onDemandCoolDown` seconds, doubling with each drop to a day.
    public static let onDemandFailures = 3
    public static let onDemandCoolDown = 3600

    /// Seconds a plan whose aliases changed waits without a further change before it is
    /// ordered (docs/acme.md, "Aliases and the budget"): a burst of `site.json` edits makes one
    /// order, not one per edit.
    public static let aliasSettle = 10
    /// Seconds before an alias-driven order whose registered domain's budget is spent is
    /// looked at again.
    public static let aliasBudgetRetry = 3600

    /// The least time between two certificates for one name (docs/acme.md, "Renewal floor"):
    /// renewal information that calls a certificate due sooner (a CA's bug or incident calling
    /// every certificate due) is followed when the floor ends, so the server never orders the
    /// same names in a loop. A day: a CA revoking in an incident gives at least that to replace
    /// its certificates, and it is at most 7 certificates a week for names whose renewals name
    /// the certificate they replace (which Let's Encrypt exempts from its limits).
    public static let renewalFloor = 86_400
}
