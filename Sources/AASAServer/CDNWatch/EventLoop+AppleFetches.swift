import AssociationKit
@preconcurrency import Glibc

extension EventLoop {
    /// Records a request for the Apple file whose User-Agent (`agent`, the field's value)
    /// names Apple's fetcher (`AppleFetches`). Called only when there is a User-Agent; any
    /// other request costs a path check and a byte search.
    func noteAppleFetch(
        _ agent: Range<Int>, _ buffer: UnsafeBufferPointer<UInt8>, _ target: RequestTarget, path: ServedPath?,
        site: SiteContent?, _ status: HTTPStatus, file: PreparedFile?
    ) {
        guard let appleFetches, path == .appleWellKnown || path == .appleRoot,
            Self.contains(UnsafeBufferPointer(rebasing: buffer[agent]), UnsafeBufferPointer(appleFetcherAgent))
        else { return }
        // `aasa-server probe` asks with Apple's marker to see that the answer does not depend
        // on it; its own requests must not pass for Apple's (README, "Apple's CDN").
        let isProbe = Self.probeMarker.withUnsafeBufferPointer {
            Self.contains(UnsafeBufferPointer(rebasing: buffer[agent]), $0)
        }
        guard !isProbe else { return }
        let host = target.hostRange.flatMap { HostName.key(buffer, $0) } ?? "-"
        appleFetches.record(
            site: site?.name, host: host, status: status.rawValue, etag: file?.etag, now: Int(time(nil)))
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
