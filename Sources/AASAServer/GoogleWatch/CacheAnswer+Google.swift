import AASATransport
import AssociationKit
import Foundation

extension CacheAnswer {
    /// Digital Asset Links' `ListResponse`: with `errorCode`, Google could not fetch or read
    /// the domain's file (`reason` the codes, `details` the error lines of `debugString`);
    /// else `statements` is what Google holds. Another status, or an answer that is not
    /// that JSON, is an error of the check, not of the domain.
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
        guard let root = AppLinkGrants.root(body), root.members != nil else {
            return .error("not a Digital Asset Links ListResponse: not a JSON object")
        }
        if let codes = root["errorCode"] {
            guard let list = codes.arrayValue?.compactMap(\.stringValue) else {
                return .error("not a Digital Asset Links ListResponse: errorCode is not a list")
            }
            if !list.isEmpty {
                let lines = (root["debugString"]?.stringValue ?? "").split(separator: "\n").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                let errors = lines.filter { $0.hasPrefix("* Error") || $0.hasPrefix("Error") }
                return .failing(
                    reason: list.joined(separator: ", "),
                    details: errors.isEmpty ? nil : errors.joined(separator: "\n"))
            }
        }
        guard let statements = root["statements"].map({ $0.arrayValue }) ?? [] else {
            return .error("not a Digital Asset Links ListResponse: statements is not a list")
        }
        guard let grants = AppLinkGrants(statements: statements) else {
            return .error("not a Digital Asset Links ListResponse: a statement is not an object")
        }
        return .copy(grants.fingerprint)
    }
}
