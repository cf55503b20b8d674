import AASATransport
import AssociationKit

extension CacheAnswer {
    /// Digital Asset Links' `ListResponse` (`GoogleListResponse`): with `errorCode`, Google could
    /// not fetch or read the domain's file (`reason` the codes, `details` the error lines of
    /// `debugString`); else `statements` is what Google holds. Another status, or an answer
    /// that is not that JSON, is an error of the check, not of the domain.
    init(listResponse result: Result<HTTPClientResponse, HTTPClientFailure>) {
        switch result {
        case .failure(let failure):
            self = .error(failure.message)
        case .success(let response) where response.status == 200:
            self = Self.listResponse(response.body)
        case .success(let response):
            self = .error("HTTP \(response.status)")
        }
    }

    static func listResponse(_ body: [UInt8]) -> CacheAnswer {
        switch GoogleListResponse(body) {
        case .statements(let grants): .copy(grants.fingerprint)
        case .failing(let codes, let errors):
            .failing(
                reason: codes.joined(separator: ", "), details: errors.isEmpty ? nil : errors.joined(separator: "\n"))
        case .unreadable(let problem): .error(problem)
        }
    }
}
