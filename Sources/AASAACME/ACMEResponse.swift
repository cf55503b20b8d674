import AASASystem
import AASATransport
import AssociationKit
import Foundation

/// One answer of the CA: status, the headers ACME reads, and the body as JSON when it is.
struct ACMEResponse {
    let status: Int
    let location: String?
    let nonce: String?
    /// Seconds, from Retry-After as a delay or an HTTP date (RFC 9110 §10.2.3), within
    /// `0...longestRetryAfter`.
    let retryAfter: Int?
    let body: [UInt8]
    /// The body read by AssociationKit's strict parser; nil when it is not JSON.
    let json: JSONValue?

    init(_ response: HTTPClientResponse, now: Int) {
        status = response.status
        location = response.header("location")
        nonce = response.header("replay-nonce")
        retryAfter = response.header("retry-after").flatMap { Self.delay($0, now: now) }
        body = response.body
        json = JSONDocument.parse(response.body).root
    }

    /// The longest wait a CA may ask for: a day, the longest backoff (docs/acme.md, "Numbers
    /// from the CA"). A larger value is read as this, so `now + delay` cannot overflow.
    static let longestRetryAfter = 86_400

    /// A Retry-After value (RFC 9110 §10.2.3: delay-seconds or an HTTP date) as seconds from
    /// `now`, clamped to `0...longestRetryAfter`; nil when it is neither. Any run of digits is
    /// a delay, however long (it is at least a day then).
    static func delay(_ value: String, now: Int) -> Int? {
        let text = value.trimmingCharacters(in: .whitespaces)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if !text.isEmpty, text.utf8.allSatisfy(isDigit) {
            guard text.utf8.count <= 6, let seconds = Int(text) else { return longestRetryAfter }
            return min(seconds, longestRetryAfter)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let (difference, overflow) = date.subtractingReportingOverflow(now)
        if overflow { return date > now ? longestRetryAfter : 0 }
        return min(max(0, difference), longestRetryAfter)
    }

    /// The problem document of an error answer (RFC 8555 §6.7), or a generic one.
    var problem: ACMEProblem {
        ACMEProblem(
            json: json, status: status, retryAfter: retryAfter,
            fallback: "HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))")
    }

    func string(_ key: String) -> String? { json?[key]?.stringValue }

    /// The body as the object `what` (RFC 8555 §7.1), or the problem saying how it is not one.
    func object(_ what: String) throws(ACMEProblem) -> ACMEObject { try ACMEObject(json, what) }
}
