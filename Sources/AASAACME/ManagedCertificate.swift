/// One certificate the ACME manager keeps, as the status page and `/sites.json` show it.
public struct ManagedCertificate: Sendable {
    public enum State: String, Sendable {
        /// Stored and not yet due for renewal.
        case valid
        /// Waiting for its turn (new, due for renewal, or after a failure's backoff).
        case scheduled
        case ordering
        /// The pre-flight found the name not pointing here (`Preflight`): not ordered, checked
        /// again after 1, 2, 4 … minutes up to an hour.
        case waitingDNS = "waiting_dns"
        /// Issued and stored; the certificate loader has not picked it up yet.
        case issued
        /// An on-demand name whose orders failed `ACMESettings.onDemandFailures` times: not
        /// ordered again until a handshake asks after its cool-down.
        case dropped
    }

    public var names: [String]
    public var state: State
    public var onDemand: Bool
    /// The certificate's issuer name (its CN).
    public var issuer: String?
    /// The configured ACME issuer (`ACMEIssuerSettings.label`) it came from, when known.
    public var issuedBy: String?
    /// The issuer the next order goes to.
    public var nextIssuer: String?
    /// The CA's suggested renewal window (RFC 9773), and when it is asked again.
    public var renewalWindow: RenewalInfo?
    public var nextCheck: Int?
    /// Seconds since the epoch.
    public var notAfter: Int?
    public var nextAttempt: Int?
    public var lastError: String?
    public var failures: Int
    /// The renewal the CA asked for waits for the end of the renewal floor (`nextAttempt`).
    public var renewalDeferred = false
}

extension ManagedCertificate {
    /// The states users see (docs/customer-domains.md): in `/sites.json`, on the status page
    /// and as `aasa_acme_certificates{state}`, the same five names everywhere.
    public enum Condition: String, Sendable, CaseIterable {
        case issued
        case waitingDNS = "waiting_dns"
        case ordering
        case failing
        case expired
    }

    /// The state as users see it: `waiting_dns`, `failing` (a failed order or a dropped
    /// on-demand name: `lastError` and `nextAttempt` say what and when), `expired` (the held
    /// certificate ended and no order runs), `ordering` (queued or running, nothing valid held)
    /// or `issued`.
    public func condition(now: Int) -> Condition {
        switch state {
        case .waitingDNS: return .waitingDNS
        case .dropped: return .failing
        // A renewal under way while a valid certificate is served stays `issued`.
        case .ordering where notAfter.map { $0 > now } != true: return .ordering
        case .scheduled where failures > 0: return .failing
        default:
            guard let notAfter else { return state == .issued ? .issued : .ordering }
            return notAfter <= now ? .expired : .issued
        }
    }

    /// `condition(now:)`'s name, as `/sites.json` writes it.
    public func status(now: Int) -> String { condition(now: now).rawValue }

    /// No valid certificate is held (none yet, or the one held expired) and none was just
    /// stored: the site's HTTPS clients get no certificate for it (`aasa_acme_certificate_unissued`).
    public func isUnissued(now: Int) -> Bool {
        condition(now: now) != .issued && (notAfter.map { $0 <= now } ?? true)
    }
}
