import AssociationKit
import CSystemShims
@preconcurrency import Glibc

extension EventLoop {
    /// Records a request for the Apple file whose User-Agent names Apple's fetcher
    /// (`AppleFetches`); any other request costs an optional check and a byte search.
    func noteAppleFetch(
        _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, _ target: RequestTarget, path: ServedPath?,
        site: SiteContent?, _ status: HTTPStatus, file: PreparedFile?
    ) {
        guard let appleFetches, let agent = head.userAgentRange, path == .appleWellKnown || path == .appleRoot,
            let start = buffer.baseAddress,
            settings.appleFetcherAgent.withUnsafeBytes({
                // memmem(3): a generic subsequence search cost 280,000 instructions per request.
                CSystemShims_memmem(start + agent.lowerBound, agent.count, $0.baseAddress, $0.count) != nil
            })
        else { return }
        let host = target.hostRange.flatMap { HostName.key(buffer, $0) } ?? "-"
        appleFetches.record(
            site: site?.name, host: host, status: status.rawValue, etag: file?.etag, now: Int(time(nil)))
    }
}
