import AssociationKit
@preconcurrency import Glibc

extension EventLoop {
    /// Records a request for the Apple file whose User-Agent names Apple's fetcher
    /// (`AppleFetches`); any other request costs an optional check and a byte search.
    func noteAppleFetch(
        _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, _ target: RequestTarget, path: ServedPath?,
        site: SiteContent?, _ status: HTTPStatus, file: PreparedFile?
    ) {
        guard let appleFetches, let agent = head.userAgentRange, path == .appleWellKnown || path == .appleRoot,
            buffer[agent].firstRange(of: settings.appleFetcherAgent) != nil
        else { return }
        let host = target.hostRange.flatMap { HostName.key(buffer, $0) } ?? "-"
        appleFetches.record(
            site: site?.name, host: host, status: status.rawValue, etag: file?.etag, now: Int(time(nil)))
    }
}
