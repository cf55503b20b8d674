import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc

/// The ACME protocol (RFC 8555) over `HTTPSClient`: the directory, nonces, JWS-signed
/// POSTs with `badNonce` retried, the account, orders, authorizations, challenges,
/// finalization and the certificate download. One client belongs to one thread at a time
/// (it keeps the last nonce); the issuer drives it.
final class ACMEClient {
    struct Order {
        let url: String
        let status: String
        let authorizations: [String]
        let finalize: String
        let certificate: String?
        let error: ACMEProblem?
    }

    struct Challenge {
        let type: String
        let url: String
        let token: String
        let status: String
    }

    struct Authorization {
        let status: String
        let name: String
        let challenges: [Challenge]
        let error: ACMEProblem?
    }

    let http: HTTPSClient
    let directoryURL: String
    let key: ECKey
    let email: String?
    let userAgent: String
    /// Sent with newAccount when the CA requires it (RFC 8555 §7.3.4).
    let binding: ExternalAccountBinding?
    private var directory: ACMEObject?
    private var nonce: String?
    private(set) var accountURL: String?
    /// Attempts per request when the CA rejects the nonce (RFC 8555 §6.5: retry with the
    /// nonce from the error).
    static let nonceAttempts = 5

    init(
        http: HTTPSClient, directoryURL: String, key: ECKey, email: String?, userAgent: String,
        binding: ExternalAccountBinding? = nil
    ) {
        self.binding = binding
        self.http = http
        self.directoryURL = directoryURL
        self.key = key
        self.email = email
        self.userAgent = userAgent
    }

    /// One exchange with the CA; every answer's Replay-Nonce is kept for the next POST.
    private func exchange(
        _ url: String, method: String = "GET", body: [UInt8] = [], accept: String = "application/json"
    ) throws(ACMEProblem) -> ACMEResponse {
        guard let endpoint = HTTPSURL(url) else { throw ACMEProblem.malformed("not an https URL: \(url.prefix(200))") }
        var headers = [("User-Agent", userAgent), ("Accept", accept)]
        if method == "POST" { headers.append(("Content-Type", "application/jose+json")) }
        let request = HTTPSClient.Request(method: method, path: endpoint.path, headers: headers, body: body)
        switch http.send(request, host: endpoint.host, port: endpoint.port, requireVerified: true) {
        case .failure(let failure):
            throw ACMEProblem.transport("\(method) \(url): \(failure.message)")
        case .success(let (_, raw)):
            let response = ACMEResponse(raw, now: Int(time(nil)))
            if let fresh = response.nonce { nonce = fresh }
            return response
        }
    }

    private func endpoint(_ name: String) throws(ACMEProblem) -> String {
        guard let url = try optionalEndpoint(name) else { throw ACMEProblem.malformed("the directory has no \(name)") }
        return url
    }

    /// The directory, fetched once per client.
    private func loadDirectory() throws(ACMEProblem) -> ACMEObject {
        if let directory { return directory }
        let response = try exchange(directoryURL)
        guard response.status == 200 else {
            throw ACMEProblem.malformed("the directory \(directoryURL) answered \(response.status)")
        }
        let object = try response.object("the directory \(directoryURL)")
        directory = object
        return object
    }

    private func optionalEndpoint(_ name: String) throws(ACMEProblem) -> String? {
        try loadDirectory().optionalString(name)
    }

    /// The renewalInfo URL when the CA offers ACME Renewal Information (RFC 9773 §3), nil
    /// when it does not; throws when the directory cannot be read.
    func renewalInfoEndpoint() throws(ACMEProblem) -> String? {
        try optionalEndpoint("renewalInfo")
    }

    /// The profiles the directory offers (`meta.profiles`: name → description), empty when none.
    func profiles() throws(ACMEProblem) -> [String: String] {
        let profiles = try loadDirectory().object("meta")?.object("profiles")
        var offered: [String: String] = [:]
        for member in profiles?.value.members ?? [] { offered[member.key] = member.value.stringValue ?? "" }
        return offered
    }

    /// A certificate's renewal window (RFC 9773 §4.2: an unauthenticated GET of the
    /// renewalInfo URL, "/", and the CertID) and the CA's Retry-After.
    func renewalInfo(_ certID: String) throws(ACMEProblem) -> (RenewalInfo, retryAfter: Int?) {
        guard let base = try renewalInfoEndpoint() else {
            throw ACMEProblem.malformed("the directory has no renewalInfo")
        }
        let response = try exchange(base.hasSuffix("/") ? base + certID : base + "/" + certID)
        guard response.status == 200 else { throw response.problem }
        guard let json = response.json, let window = RenewalInfo(json: json) else {
            throw ACMEProblem.malformed("renewalInfo answered without a valid suggestedWindow")
        }
        return (window, response.retryAfter)
    }

    /// A signed POST (`payload` nil: POST-as-GET). A `badNonce` is retried with the nonce
    /// that came with it; any other error answer is thrown as the CA's problem.
    func post(_ url: String, payload: JSONNode?, accept: String = "application/json") throws(ACMEProblem)
        -> ACMEResponse
    {
        var last: ACMEProblem?
        for _ in 0..<Self.nonceAttempts {
            if nonce == nil {
                let fresh = try exchange(try endpoint("newNonce"))
                guard nonce != nil else {
                    throw ACMEProblem.malformed("newNonce answered \(fresh.status) without a Replay-Nonce")
                }
            }
            guard let current = nonce else { break }
            nonce = nil
            let signer: JWS.Signer = accountURL.map { .kid($0) } ?? .jwk
            let body = try JWS.sign(payload: payload, url: url, nonce: current, key: key, signer: signer)
            let response = try exchange(url, method: "POST", body: body, accept: accept)
            if (200..<300).contains(response.status) { return response }
            let problem = response.problem
            guard problem.isBadNonce else { throw problem }
            last = problem
        }
        throw last ?? ACMEProblem.malformed("no nonce")
    }

    /// newAccount (RFC 8555 §7.3): the same key finds the same account again, so a restart
    /// registers nothing new. With external account binding, its JWS goes along (§7.3.4).
    func register() throws(ACMEProblem) {
        guard accountURL == nil else { return }
        var fields: [(key: String, value: JSONNode)] = [("termsOfServiceAgreed", .bool(true))]
        if let email { fields.append(("contact", .array([.string("mailto:" + email)]))) }
        let url = try endpoint("newAccount")
        if let binding { fields.append(("externalAccountBinding", binding.binding(accountJWK: key.jwkNode, url: url))) }
        let response: ACMEResponse
        do {
            response = try post(url, payload: .object(fields))
        } catch  where error.code == "serverInternal" {
            // Registering is idempotent (RFC 8555 §7.3.1: the same key gets its account, 200),
            // so one more try after a CA's internal error is safe; replicas and workers sharing
            // one account key register at once, and Pebble answers such a race with a 500.
            Thread.sleep(forTimeInterval: 1)
            response = try post(url, payload: .object(fields))
        }
        guard let location = response.location else {
            throw ACMEProblem.malformed("newAccount answered without the account's URL")
        }
        accountURL = location
    }

    /// newOrder (RFC 8555 §7.4) for DNS identifiers, with the profile to issue under (checked
    /// against `meta.profiles`) and the CertID of the certificate it replaces (RFC 9773 §5).
    func newOrder(_ names: [String], profile: String? = nil, replaces: String? = nil) throws(ACMEProblem) -> Order {
        try register()
        let identifiers = names.map { JSONNode.object([("type", .string("dns")), ("value", .string($0))]) }
        var payload: [(key: String, value: JSONNode)] = [("identifiers", .array(identifiers))]
        if let profile {
            let offered = try profiles()
            guard offered[profile] != nil else { throw ACMEProblem.unknownProfile(profile, offered: offered) }
            payload.append(("profile", .string(profile)))
        }
        if let replaces { payload.append(("replaces", .string(replaces))) }
        let response = try post(try endpoint("newOrder"), payload: .object(payload))
        guard let url = response.location else { throw ACMEProblem.malformed("newOrder answered without a Location") }
        return try order(response, url: url)
    }

    func fetchOrder(_ url: String) throws(ACMEProblem) -> (Order, retryAfter: Int?) {
        let response = try post(url, payload: nil)
        return (try order(response, url: url), response.retryAfter)
    }

    func fetchAuthorization(_ url: String) throws(ACMEProblem) -> (Authorization, retryAfter: Int?) {
        let response = try post(url, payload: nil)
        let json = try response.object("the authorization \(url)")
        let status = try json.string("status")
        guard let identifier = try json.object("identifier") else {
            throw ACMEProblem.malformed("the authorization \(url) has no \"identifier\"")
        }
        let name = try identifier.string("value")
        let entries = try json.objects("challenges")
        var challenges: [Challenge] = []
        for entry in entries {
            challenges.append(
                Challenge(
                    type: try entry.string("type"), url: try entry.string("url"),
                    token: try entry.optionalString("token") ?? "", status: try entry.optionalString("status") ?? ""))
        }
        // A failed validation's problem is on its challenge (RFC 8555 §7.1.5).
        let error = entries.lazy.compactMap { $0.value["error"] }.first { $0.members != nil }.map {
            ACMEProblem(json: $0)
        }
        return (Authorization(status: status, name: name, challenges: challenges, error: error), response.retryAfter)
    }

    /// Tells the CA the challenge is ready (RFC 8555 §7.5.1: an empty object).
    func respond(to challenge: Challenge) throws(ACMEProblem) {
        _ = try post(challenge.url, payload: .object([]))
    }

    func finalize(_ order: Order, csr: [UInt8]) throws(ACMEProblem) -> Order {
        let response = try post(order.finalize, payload: .object([("csr", .string(Base64URL.encode(csr)))]))
        return try self.order(response, url: order.url)
    }

    /// The chain, leaf first (RFC 8555 §7.4.2: application/pem-certificate-chain).
    func downloadCertificate(_ url: String) throws(ACMEProblem) -> String {
        let response = try post(url, payload: nil, accept: "application/pem-certificate-chain")
        let text = String(decoding: response.body, as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----") else {
            throw ACMEProblem.malformed("the certificate download is not a PEM chain")
        }
        return text
    }

    private func order(_ response: ACMEResponse, url: String) throws(ACMEProblem) -> Order {
        let json = try response.object("the order \(url)")
        return Order(
            url: url, status: try json.string("status"), authorizations: try json.strings("authorizations"),
            finalize: try json.string("finalize"), certificate: try json.optionalString("certificate"),
            error: try json.object("error").map { ACMEProblem(json: $0.value) })
    }
}
