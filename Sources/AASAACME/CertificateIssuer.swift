import AASATransport
import Foundation
import Logging

/// One issuance, start to end (RFC 8555 §7.1 overview): a new order for the names, each
/// pending authorization answered with the first challenge type in preference order that
/// the CA offers, polled until valid (at the CA's Retry-After, else a growing pause), then
/// finalized with a CSR for a fresh P-256 key and the chain downloaded. Bounded in time:
/// past `deadline` the order is abandoned as failed.
struct CertificateIssuer {
    struct Issued {
        let keyPEM: [UInt8]
        let chainPEM: [UInt8]
    }

    let client: ACMEClient
    let board: ChallengeBoard
    let challenges: [ChallengeType]
    let logger: Logger
    /// Seconds an order may take from newOrder to the chain.
    var deadline: Double = 180
    /// Waits this many seconds between polls; false when the server is stopping, which
    /// abandons the order (`ACMEProblem.stoppedType`) rather than hold the stop for minutes.
    var rest: (Double) -> Bool = { seconds in
        Thread.sleep(forTimeInterval: seconds)
        return true
    }

    /// `replaces` is the CertID of the certificate renewed (RFC 9773 §5); a CA that says it
    /// was already replaced gets the order again without it.
    func issue(_ names: [String], profile: String? = nil, replaces: String? = nil) throws(ACMEProblem) -> Issued {
        let end = Date().addingTimeInterval(deadline)
        var order: ACMEClient.Order
        do {
            order = try client.newOrder(names, profile: profile, replaces: replaces)
        } catch  where replaces != nil && error.code == "alreadyReplaced" {
            order = try client.newOrder(names, profile: profile)
        }
        logger.info(
            "acme: order created", metadata: ["names": "\(names.joined(separator: ","))", "order": "\(order.url)"])
        for url in order.authorizations {
            try authorize(url, end: end)
        }
        var pause = 1.0
        while order.status == "pending" {
            let (next, retryAfter) = try client.fetchOrder(order.url)
            order = next
            if order.status == "pending" { try wait(retryAfter, &pause, until: end) }
        }
        guard order.status == "ready" || order.status == "processing" || order.status == "valid" else {
            throw order.error ?? ACMEProblem(type: "orderInvalid", detail: "the order is \(order.status)")
        }
        let key: ECKey
        let csr: [UInt8]
        do {
            key = try ECKey.generate()
            csr = try CertificateRequest.der(names: names, key: key)
        } catch {
            throw ACMEProblem.transport("cannot make the key or CSR: \(error)")
        }
        if order.status == "ready" { order = try client.finalize(order, csr: csr) }
        pause = 1.0
        while order.status == "processing" {
            let (next, retryAfter) = try client.fetchOrder(order.url)
            order = next
            if order.status == "processing" { try wait(retryAfter, &pause, until: end) }
        }
        guard order.status == "valid", let certificate = order.certificate else {
            throw order.error ?? ACMEProblem(type: "orderInvalid", detail: "the order ended \(order.status)")
        }
        let chain = try client.downloadCertificate(certificate)
        return Issued(keyPEM: key.pem(), chainPEM: Array(chain.utf8))
    }

    /// Validates one authorization: nothing to do when the CA already holds it valid.
    private func authorize(_ url: String, end: Date) throws(ACMEProblem) {
        var (authorization, _) = try client.fetchAuthorization(url)
        if authorization.status == "valid" { return }
        guard authorization.status == "pending" else {
            throw authorization.error
                ?? ACMEProblem(type: "unauthorized", detail: "\(authorization.name) is \(authorization.status)")
        }
        guard
            let (type, challenge) = challenges.lazy.compactMap({ type in
                authorization.challenges.first { $0.type == type.rawValue }.map { (type, $0) }
            }).first
        else {
            let offered = authorization.challenges.map(\.type).joined(separator: ", ")
            throw ACMEProblem(
                type: "noChallenge",
                detail: "\(authorization.name): the CA offers \(offered), none of "
                    + challenges.map(\.rawValue).joined(separator: ", "))
        }
        // RFC 8555 §8.1: token "." base64url(JWK thumbprint).
        let keyAuthorization = challenge.token + "." + client.key.thumbprint
        let name = authorization.name
        // Posted where every replica finds it before the CA is asked: any of them may get a check.
        switch type {
        case .http01:
            do { try board.postHTTP(token: challenge.token, name: name, keyAuthorization: keyAuthorization) } catch {
                throw ACMEProblem.transport("cannot post the challenge to the store: \(error)")
            }
        case .tlsALPN01:
            let context: TLSContext
            do { context = try TLSContext.acmeValidation(name: name, keyAuthorization: keyAuthorization) } catch {
                throw ACMEProblem.transport("cannot make the validation certificate: \(error)")
            }
            do { try board.postTLS(name: name, keyAuthorization: keyAuthorization, context: context) } catch {
                throw ACMEProblem.transport("cannot post the challenge to the store: \(error)")
            }
        }
        defer {
            switch type {
            case .http01: board.removeHTTP(token: challenge.token)
            case .tlsALPN01: board.removeTLS(name: name)
            }
        }
        logger.info("acme: answering \(type.rawValue)", metadata: ["name": "\(name)"])
        try client.respond(to: challenge)
        var pause = 1.0
        while true {
            let (next, retryAfter) = try client.fetchAuthorization(url)
            authorization = next
            switch authorization.status {
            case "valid":
                logger.info(
                    "acme: authorization valid", metadata: ["name": "\(name)", "challenge": "\(type.rawValue)"])
                return
            case "pending", "processing":
                try wait(retryAfter, &pause, until: end)
            default:
                throw authorization.error
                    ?? ACMEProblem(
                        type: "unauthorized", detail: "\(name): the authorization is \(authorization.status)")
            }
        }
    }

    /// Sleeps before the next poll: the CA's Retry-After when it gave one, else 1 s doubling
    /// to 8 s; never past the order's deadline.
    private func wait(_ retryAfter: Int?, _ pause: inout Double, until end: Date) throws(ACMEProblem) {
        let seconds = retryAfter.map { Double(min(max($0, 1), 60)) } ?? pause
        pause = min(pause * 2, 8)
        guard Date().addingTimeInterval(seconds) < end else {
            throw ACMEProblem(type: "timeout", detail: "the order did not complete within \(Int(deadline)) s")
        }
        guard rest(seconds) else {
            throw ACMEProblem(type: ACMEProblem.stoppedType, detail: "the server is stopping: the order is abandoned")
        }
    }
}
