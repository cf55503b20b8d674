import AASALoop
@preconcurrency import Glibc

/// Who the admin listener answers, decided once per request before routing (docs/security.md, "The
/// admin listener"). A web page the operator opens can make the browser send requests to the
/// admin port under a name the page's owner controls (DNS rebinding), so only a `Host` that
/// is an IP literal, `localhost` or a configured name is answered: 421 otherwise (RFC 9110
/// §15.5.20). With a token, every path but /healthz and /readyz also needs
/// `Authorization: Bearer TOKEN` (RFC 6750 §2.1): 401 otherwise (RFC 9110 §11.6.1).
struct AdminAccess: Sendable {
    /// Configured host names, lower-case, without a port or a trailing dot.
    let hosts: Set<String>
    let token: AdminToken?

    init(hosts: [String], token: AdminToken?) {
        self.hosts = Set(hosts)
        self.token = token
    }

    /// The answer that refuses the request, or nil when it may be routed.
    func refusal(for head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, path: String) -> AdminResponse? {
        guard let range = head.hostRange, allows(host: Array(buffer[range])) else {
            return AdminResponse(
                status: .misdirectedRequest,
                text: "421 Misdirected Request: this admin listener answers only its IP address, localhost "
                    + "or a name in adminHosts (--admin-host)\n")
        }
        guard let token, path != "/healthz", path != "/readyz" else { return nil }
        if head.authorizationCount == 1, let field = head.authorizationRange,
            let credentials = Self.credentials(buffer, field), token.matches(buffer[credentials])
        {
            return nil
        }
        var refusal = AdminResponse(
            status: .unauthorized, text: "401 Unauthorized: send Authorization: Bearer with the admin token\n")
        refusal.asksForToken = true
        return refusal
    }

    /// Whether `host` (a Host field value, RFC 9110 §7.2: uri-host [":" port]) names this
    /// listener: an IPv4 or bracketed IPv6 literal, `localhost`, or a configured name; any
    /// port, and a name's trailing dot, are ignored.
    func allows(host: [UInt8]) -> Bool {
        guard let (name, isBracketed) = Self.split(host) else { return false }
        if isBracketed { return Self.isAddress(name, family: AF_INET6) }
        if Self.isAddress(name, family: AF_INET) { return true }
        var lowered = String(decoding: name.map(HTTPToken.lower), as: UTF8.self)
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered == "localhost" || hosts.contains(lowered)
    }
}
