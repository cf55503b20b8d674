import AASAFileCommands
import AASAProbe
import AASASites
import AASASystem
import AASATransport

extension LiveFileSource {
    /// `diff --against-live` over the HTTPS client `probe` uses.
    static let https = LiveFileSource(
        acceptsAddress: { ProbeCommand.parseHostPort($0) != nil },
        fetch: { request in
            let (host, path) =
                request.cdn ? (Prober.cdnHost, "/a/v1/\(request.domain)") : (request.domain, request.path)
            let client = HTTPSClient(caFile: request.cacert, timeout: request.timeout)
            let address = request.connectTo.flatMap(ProbeCommand.parseHostPort) ?? (host, 443)
            let url = "https://\(host)\(path)"
            // A file from a peer whose chain does not verify could be anyone's: refused before
            // the request is sent, as ACME and the CDN watch do.
            switch client.fetch(
                host: host, port: 443, address: address, path: path, userAgent: "aasa-server-diff/\(Version.current)",
                requireVerified: true)
            {
            case .success(let (_, response)) where response.status == 200: return .fetched(response.body, url: url)
            case .success(let (_, response)): return .failed("answered \(response.status), not 200", url: url)
            case .failure(let failure): return .failed(failure.message, url: url)
            }
        })
}
