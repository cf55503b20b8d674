import AASALoop
import AASATransport
import AssociationKit

extension SiteHandler {
    static let acmeChallengePrefix: StaticString = "/.well-known/acme-challenge/"
    static let keyAuthorizationHeaders = Array(
        "Server: aasa-server\r\nContent-Type: application/octet-stream\r\nCache-Control: no-store\r\nContent-Length: "
            .utf8)

    /// HTTP-01 (RFC 8555 §8.3): `/.well-known/acme-challenge/TOKEN` answers the key
    /// authorization while that token's authorization is pending for the request's host;
    /// nil (the caller's 404) for every other token, host or path; a deferred outcome while
    /// another replica's challenge is looked up. Only the plain listener answers, never with a
    /// redirect.
    func respondToChallenge(
        _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, target: RequestTarget, site: SiteContent?,
        _ client: RequestClient, writer: ResponseWriter
    ) -> RequestOutcome? {
        guard let acme, !client.isSecure, let hostRange = target.hostRange, head.method != .other else {
            return nil
        }
        let path = target.pathRange
        let prefixLength = Self.acmeChallengePrefix.utf8CodeUnitCount
        guard path.count > prefixLength,
            HTTPToken.equals(buffer, path.lowerBound..<(path.lowerBound + prefixLength), Self.acmeChallengePrefix),
            let host = HostName.key(buffer, hostRange)
        else { return nil }
        let token = String(
            decoding: buffer[(path.lowerBound + prefixLength)..<path.upperBound].prefix { $0 != UInt8(ascii: "?") },
            as: UTF8.self)
        let body: [UInt8]
        switch acme.keyAuthorization(token: token, host: host, lookUp: site != nil, source: client.source) {
        case .found(let answer): body = answer
        case .absent: return nil
        // Another replica's challenge, being looked up off the loop: the loop keeps the
        // request and asks again once woken.
        case .pending:
            writer.waitFor(.httpChallenge(token: token))
            return RequestOutcome(status: .ok, closing: .deferred)
        }
        writer.startHead(ResponseHead.ok)
        writer.write(Self.keyAuthorizationHeaders)
        writer.writeCount(body.count)
        writer.endHead()
        let sendsBody = head.method == .get
        if sendsBody { writer.write(body) }
        var outcome = RequestOutcome(status: .ok, bodyBytes: sendsBody ? body.count : 0)
        outcome.site = site
        return outcome
    }
}
