import AssociationKit

/// What went wrong talking to the CA: the server's problem document (RFC 7807, RFC 8555
/// §6.7) with its `type` and `detail`, or a failure below HTTP. `retryAfter` is the CA's own
/// wish (a 429's or a `rateLimited` problem's Retry-After, RFC 8555 §6.6), in seconds.
public struct ACMEProblem: Error, Sendable, CustomStringConvertible {
    /// `urn:ietf:params:acme:error:badNonce`, … or `transport` below HTTP.
    public var type: String
    public var detail: String
    public var status: Int?
    public var retryAfter: Int?

    public init(type: String, detail: String, status: Int? = nil, retryAfter: Int? = nil) {
        self.type = type
        self.detail = detail
        self.status = status
        self.retryAfter = retryAfter
    }

    static let prefix = "urn:ietf:params:acme:error:"
    /// An order abandoned because the server is stopping: not the CA's answer, never booked.
    static let stoppedType = "stopped"

    /// The short form of the type (`badNonce`), as logs and metrics label it.
    public var code: String {
        type.hasPrefix(Self.prefix) ? String(type.dropFirst(Self.prefix.count)) : type
    }

    public var isBadNonce: Bool { code == "badNonce" }
    public var isRateLimited: Bool { code == "rateLimited" || status == 429 }

    public var description: String {
        "\(code)" + (status.map { " (HTTP \($0))" } ?? "") + ": \(detail)"
            + (retryAfter.map { ", retry after \($0) s" } ?? "")
    }

    /// A problem document's fields (RFC 7807 §3.1); `fallback` is the detail when it has none.
    /// A field of the wrong type counts as absent: the problem is already the answer.
    init(json: JSONValue?, status: Int? = nil, retryAfter: Int? = nil, fallback: String = "") {
        self.init(
            type: json?["type"]?.stringValue ?? "about:blank", detail: json?["detail"]?.stringValue ?? fallback,
            status: status ?? json?["status"]?.intValue, retryAfter: retryAfter)
    }

    static func transport(_ detail: String) -> ACMEProblem {
        ACMEProblem(type: "transport", detail: detail)
    }

    /// A profile the directory does not list in `meta.profiles`, naming those it does.
    static func unknownProfile(_ profile: String, offered: [String: String]) -> ACMEProblem {
        ACMEProblem(
            type: "profile",
            detail: "the profile \(profile) is not offered"
                + (offered.isEmpty
                    ? " (the directory lists no profiles)"
                    : " (offered: \(offered.keys.sorted().joined(separator: ", ")))"))
    }

    static func malformed(_ detail: String) -> ACMEProblem {
        ACMEProblem(type: "response", detail: detail)
    }
}
