import AASATransport
import AssociationKit

extension SiteHandler {
    static let acmeChallengePrefix: StaticString = "/.well-known/acme-challenge/"
    static let keyAuthorizationHeaders = Array(
        "Server: aasa-server\r\nContent-Type: application/octet-stream\r\nCache-Control: no-store\r\n".utf8)

    /// HTTP-01 (RFC 8555 §8.3): `/.well-known/acme-challenge/TOKEN` answers the key
    /// authorization while that token's authorization is pending for the request's host;
    /// false (the caller's 404) for every other token, host or path. Only the plain listener
    /// answers, never with a redirect.
    func respondToChallenge(
        _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, target: RequestTarget,
        on connection: Connection, keepAlive: Bool, loop: EventLoop<SiteHandler>
    ) -> Bool {
        guard let acme, connection.tls == nil, let hostRange = target.hostRange, head.method != .other else {
            return false
        }
        let path = target.pathRange
        let prefixLength = Self.acmeChallengePrefix.utf8CodeUnitCount
        guard path.count > prefixLength,
            HTTPToken.equals(buffer, path.lowerBound..<(path.lowerBound + prefixLength), Self.acmeChallengePrefix),
            let host = HostName.key(buffer, hostRange)
        else { return false }
        let token = String(
            decoding: buffer[(path.lowerBound + prefixLength)..<path.upperBound].prefix { $0 != UInt8(ascii: "?") },
            as: UTF8.self)
        guard let body = acme.keyAuthorization(token: token, host: host) else { return false }
        loop.startHead(ResponseHead.ok)
        loop.out.append(Self.keyAuthorizationHeaders)
        loop.out.append(Array("Content-Length: \(body.count)\r\n".utf8))
        loop.endHead(keepAlive: keepAlive, head: head, on: connection)
        if head.method == .get { loop.out.append(body) }
        return true
    }
}
