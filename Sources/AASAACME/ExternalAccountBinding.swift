import AASASystem
import AASATransport
import AssociationKit
@preconcurrency import Glibc

/// External account binding (RFC 8555 §7.3.4): the key identifier and HMAC key a CA such as
/// ZeroSSL or Google Trust Services gives, which ties a new ACME account to the customer's
/// account there. The key comes from a file only this user may read.
struct ExternalAccountBinding: Sendable {
    let kid: String
    let key: [UInt8]

    /// Reads `file`: base64url text (RFC 4648 §5), surrounding whitespace allowed. A file
    /// that the group or others may read or write is refused, as the key would be no secret.
    init(kid: String, file: String) throws(ACMEProblem) {
        self.kid = kid
        let fd: Int32
        do throws(SystemError) {
            fd = try Posix.open(file, O_RDONLY | O_NONBLOCK)
        } catch {
            throw ACMEProblem.transport("cannot read the EAB key file \(file): \(error.reason)")
        }
        defer { Posix.close(fd) }
        let info: stat
        do throws(SystemError) {
            info = try Posix.status(fd)
        } catch {
            throw ACMEProblem.transport("cannot read the EAB key file \(file): \(error.reason)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ACMEProblem.transport("the EAB key file \(file) is not a regular file")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ACMEProblem.transport(
                "the EAB key file \(file) has mode \(String(info.st_mode & 0o777, radix: 8)); chmod 600 it")
        }
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try Posix.readAll(fd, limit: 4097)
        } catch {
            throw ACMEProblem.transport("cannot read the EAB key file \(file): \(error.reason)")
        }
        guard bytes.count < 4097, let key = Base64URL.decode(String(decoding: bytes, as: UTF8.self)), !key.isEmpty
        else { throw ACMEProblem.transport("the EAB key file \(file) does not hold a base64url key") }
        self.key = key
    }

    init(kid: String, key: [UInt8]) {
        self.kid = kid
        self.key = key
    }

    /// The `externalAccountBinding` member of newAccount: a flattened JWS (HS256) over the
    /// account's public JWK, its protected header naming `kid` and the newAccount URL.
    func binding(accountJWK: JSONNode, url: String) -> JSONNode {
        let header = JSONNode.object([("alg", .string("HS256")), ("kid", .string(kid)), ("url", .string(url))])
        let protected = Base64URL.encode(JSONWriter().text(header))
        let payload = Base64URL.encode(JSONWriter().text(accountJWK))
        let signature = HMACSHA256.authenticate(Array("\(protected).\(payload)".utf8), key: key)
        return .object([
            ("protected", .string(protected)), ("payload", .string(payload)),
            ("signature", .string(Base64URL.encode(signature))),
        ])
    }
}
