import AASASignedData
import AASATransport
import AssociationKit

extension CacheAnswer {
    /// Apple's CDN answers 200 with the file, or 404 with its failure headers; anything else,
    /// or no answer, is an error of the check, not of the domain.
    init(appleCDN result: Result<HTTPClientResponse, HTTPClientFailure>) {
        switch result {
        case .failure(let failure):
            self = .error(failure.message)
        case .success(let response) where response.status == 200:
            // A signed copy means what its content means (docs/association-files.md, "Signed files").
            self = .copy(MeaningFingerprint(json: SignedContent.json(response.body)))
        case .success(let response) where response.status == 404:
            if let reason = response.header("apple-failure-reason") {
                self = .failing(reason: reason, details: response.header("apple-failure-details"))
            } else {
                self = .error("404 without Apple-Failure-Reason")
            }
        case .success(let response):
            self = .error("HTTP \(response.status)")
        }
    }
}
