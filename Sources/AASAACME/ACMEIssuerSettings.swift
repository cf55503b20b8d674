import AASATransport

/// One CA to order from (docs/acme.md, "Issuers in order"): its directory, a CA file to trust
/// besides the system's, the external account binding it requires (RFC 8555 §7.3.4) and the
/// profile to ask for. `acmeIssuers` lists several, tried in order; the `--acme-directory`
/// flags give one.
public struct ACMEIssuerSettings: Sendable, Equatable {
    public var directory: String
    public var ca: String?
    public var eabKid: String?
    /// A file holding the base64url HMAC key the CA gave with `eabKid`, mode 0600 or 0400.
    public var eabHmacKeyFile: String?
    /// A name from the directory's `meta.profiles`, or nil for the CA's default.
    public var profile: String?

    public init(
        directory: String, ca: String? = nil, eabKid: String? = nil, eabHmacKeyFile: String? = nil,
        profile: String? = nil
    ) {
        self.directory = directory
        self.ca = ca
        self.eabKid = eabKid
        self.eabHmacKeyFile = eabHmacKeyFile
        self.profile = profile
    }

    /// How logs, the status page and `/metrics` name the issuer: the directory's host, with
    /// its port when not 443 (bounded: one per configured issuer).
    public var label: String {
        guard let url = HTTPSURL(directory) else { return directory }
        return url.port == 443 ? url.host : "\(url.host):\(url.port)"
    }

    /// The directory and profile, as the start-up log line shows them.
    public var logged: String {
        directory + (profile.map { " profile=" + $0 } ?? "")
    }

    /// What is wrong with the settings, or nil: EAB needs both the kid and the key file.
    public var problem: String? {
        if !directory.hasPrefix("https://") { return "the ACME directory must be an https:// URL (got \(directory))" }
        if (eabKid == nil) != (eabHmacKeyFile == nil) {
            return "\(directory): external account binding needs both eabKid and eabHmacKeyFile"
        }
        return nil
    }
}
