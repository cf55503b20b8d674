import AASALoop
import AASATransport
import AssociationKit
@preconcurrency import Glibc

extension SiteHandler {
    /// Records a request for the Apple file whose User-Agent (`agent`, the field's value)
    /// names Apple's fetcher (`AppleFetches`). Called only when there is a User-Agent; any
    /// other request costs a path check and a byte search.
    func noteAppleFetch(
        _ agent: Range<Int>, _ buffer: UnsafeBufferPointer<UInt8>, _ head: HTTPRequestHead, _ target: RequestTarget,
        _ client: RequestClient, path: ServedPath?, site: SiteContent?, _ status: HTTPStatus, file: PreparedFile?
    ) {
        guard let appleFetches, path?.isApple == true,
            Self.contains(UnsafeBufferPointer(rebasing: buffer[agent]), UnsafeBufferPointer(appleFetcherAgent.bytes))
        else { return }
        // `aasa-server probe` asks with Apple's marker to see that the answer does not depend
        // on it; its own requests must not pass for Apple's (docs/watches.md, "Apple's CDN").
        let isProbe = Self.probeMarker.withUnsafeBufferPointer {
            Self.contains(UnsafeBufferPointer(rebasing: buffer[agent]), $0)
        }
        guard !isProbe else { return }
        let host = target.hostRange.flatMap { HostName.key(buffer, $0) } ?? "-"
        var verified = false
        if !appleFetcherNetworks.isEmpty, let address = clientAddress(head, buffer, client) {
            verified = appleFetcherNetworks.contains { $0.contains(address) }
        }
        appleFetches.record(
            site: site?.name, host: host, status: status.rawValue, etag: file?.etag, verified: verified,
            now: Int(time(nil)))
    }

    /// The client's address: the peer's, or, when the peer is a trusted proxy, the last
    /// address of its `X-Forwarded-For` (the one that proxy added; earlier ones came from the
    /// client and prove nothing).
    func clientAddress(
        _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, _ client: RequestClient
    ) -> IPAddress? {
        guard let peer = IPAddress(peer: client.peer) else { return nil }
        guard let forwarded = head.forwardedForRange, trustedProxies.contains(where: { $0.contains(peer) }) else {
            return peer
        }
        var start = forwarded.lowerBound
        for index in forwarded where buffer[index] == UInt8(ascii: ",") { start = index + 1 }
        return IPAddress(buffer[HTTPToken.trimmingWhitespace(buffer, start..<forwarded.upperBound)])
    }

    /// What `aasa-server probe`'s User-Agent carries after Apple's marker
    /// (`Prober.unusualUserAgent`).
    static let probeMarker = Array("(aasa-server probe)".utf8)

    /// Whether `needle` occurs in `haystack`: memchr(3) for its first byte, then memcmp(3).
    /// (A generic `firstRange(of:)` here cost 280,000 instructions per request under
    /// callgrind; memmem(3) 500; this about 100 for a browser's User-Agent.)
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, let pattern = needle.baseAddress, let start = haystack.baseAddress,
            haystack.count >= needle.count
        else { return needle.isEmpty }
        let end = start + haystack.count
        var cursor = start
        while end - cursor >= needle.count, let hit = memchr(cursor, Int32(first), end - cursor - needle.count + 1) {
            if memcmp(hit, pattern, needle.count) == 0 { return true }
            cursor = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return false
    }
}
