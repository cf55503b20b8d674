import AASATransport
import AssociationKit

extension Prober {
    /// `probe --google`: asks Google's Digital Asset Links API what it holds of the domain's
    /// assetlinks.json, with the server's watch's query and reading (`GoogleListResponse`), and
    /// compares it by meaning (`AppLinkGrants`) with the origin's file. Returns Google's view
    /// as a file, for the answer about a URL.
    func askGoogle(
        _ google: GoogleQuestion, host: String, origin: ServedFiles.Copy, into report: inout ProbeReport
    ) -> ServedFiles.Copy {
        let asked = GoogleListResponse.query(google.url, domain: host)
        guard let url = HTTPSURL(asked) else {
            report.add("google", .fail, "not an https URL: \(google.url)")
            return .unknown("Google was not asked")
        }
        // Google's answer is only worth comparing when it comes from Google: the chain must verify.
        let result = google.client.fetch(
            host: url.host, port: url.port, path: url.path, userAgent: Self.userAgent, requireVerified: true)
        let response: HTTPClientResponse
        switch result {
        case .failure(let failure):
            report.add("google", .fail, "cannot ask Google: \(failure.message)")
            return .unknown("Google could not be asked")
        case .success(let (_, answer)) where answer.status != 200:
            report.add("google", .fail, "cannot ask Google: HTTP \(answer.status)")
            return .unknown("Google could not be asked")
        case .success(let (_, answer)):
            response = answer
        }
        switch GoogleListResponse(response.body) {
        case .unreadable(let problem):
            report.add("google", .fail, "cannot ask Google: \(problem)")
            return .unknown("Google could not be asked")
        case .failing(let codes, let errors):
            // Android's verifier does not retry such a failure: the app stays unverified.
            report.add(
                "google", .fail,
                "Google cannot verify \(host): \(codes.joined(separator: ", "))"
                    + errors.map { "\n" + $0 }.joined())
            return .missing("Google cannot verify the domain (\(codes.joined(separator: ", ")))")
        case .statements(let view):
            compare(view, with: origin, into: &report)
            return .json(view.assetLinks)
        }
    }

    private func compare(_ view: AppLinkGrants, with origin: ServedFiles.Copy, into report: inout ProbeReport) {
        guard case .json(let file) = origin, let served = AppLinkGrants(assetLinks: file) else {
            report.add(
                "google", .warn,
                "Google holds \(view.grants.count) handle_all_urls grant(s); the origin serves no valid assetlinks.json"
            )
            return
        }
        // By meaning, as the server's watch compares: the same fingerprint, the same grants.
        guard served.fingerprint != view.fingerprint else {
            report.add(
                "google", .pass,
                "Google's view means the same as the origin's assetlinks.json (\(view.grants.count) grant(s))")
            return
        }
        let lines = served.differences(from: view, mine: "the origin's file", theirs: "Google's view")
        report.add(
            "google", .warn,
            "Google's view differs from the origin's assetlinks.json (Google refreshes it within its maxAge; "
                + "devices verify at install and update):\n" + lines.joined(separator: "\n"))
    }
}
