import AASATransport
import Foundation

/// One answer of the CA: status, the headers ACME reads, and the body as JSON when it is.
struct ACMEResponse {
    let status: Int
    let location: String?
    let nonce: String?
    /// Seconds, from Retry-After as a delay or an HTTP date (RFC 9110 §10.2.3).
    let retryAfter: Int?
    let body: [UInt8]
    let json: [String: Any]?

    init(_ response: HTTPClientResponse, now: Int) {
        status = response.status
        location = response.header("location")
        nonce = response.header("replay-nonce")
        retryAfter = response.header("retry-after").flatMap { value in
            if let seconds = Int(value.trimmingCharacters(in: .whitespaces)) { return max(0, seconds) }
            return HTTPDate.parse(value).map { max(0, $0 - now) }
        }
        body = response.body
        json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
    }

    /// The problem document of an error answer (RFC 8555 §6.7), or a generic one.
    var problem: ACMEProblem {
        ACMEProblem(
            json: json, status: status, retryAfter: retryAfter,
            fallback: "HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))")
    }

    func string(_ key: String) -> String? { json?[key] as? String }
}
