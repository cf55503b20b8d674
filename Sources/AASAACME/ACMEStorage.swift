import AASATransport
import CSystemShims
import Foundation
@preconcurrency import Glibc

/// The `acme/` folder under `--certs` (README, "Automatic certificates"): `account.key`
/// (mode 0600) and one folder per certificate in certbot's layout, `fullchain.pem` and
/// `privkey.pem` (0600), which the certificate loader reads like any other pair. A
/// certificate folder is written whole under a hidden name and swapped into place with one
/// rename(2), so a reload never sees half of a pair. `.lock-NAME` files (flock(2)) keep
/// replicas that share the folder from ordering the same name twice.
public struct ACMEStorage: Sendable {
    public let folder: String

    public init(certificates: String) {
        folder = (certificates as NSString).appendingPathComponent("acme")
    }

    public func certificateFolder(_ name: String) -> String {
        (folder as NSString).appendingPathComponent(name)
    }

    var accountKeyPath: String { (folder as NSString).appendingPathComponent("account.key") }

    /// The account key, made once (P-256) and reused by every later start.
    func accountKey() throws(ACMEProblem) -> ECKey {
        try makeFolder()
        if let pem = FileManager.default.contents(atPath: accountKeyPath) {
            do { return try ECKey(pem: [UInt8](pem)) } catch {
                throw ACMEProblem.transport("\(accountKeyPath): \(error)")
            }
        }
        do {
            let key = try ECKey.generate()
            try Self.writeAtomically(key.pem(), to: accountKeyPath, mode: 0o600)
            return key
        } catch {
            throw ACMEProblem.transport("cannot create the account key \(accountKeyPath): \(error)")
        }
    }

    /// Stores an issued certificate as `acme/NAME/` (replacing an older one in one step).
    func store(_ issued: CertificateIssuer.Issued, name: String) throws(ACMEProblem) {
        let target = certificateFolder(name)
        let staging = (folder as NSString).appendingPathComponent(".new-\(name)-\(getpid())")
        do {
            try? FileManager.default.removeItem(atPath: staging)
            guard mkdir(staging, 0o700) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            try Self.writeAtomically(
                issued.keyPEM, to: (staging as NSString).appendingPathComponent("privkey.pem"), mode: 0o600)
            try Self.writeAtomically(
                issued.chainPEM, to: (staging as NSString).appendingPathComponent("fullchain.pem"), mode: 0o644)
            chmod(staging, 0o755)
            if FileManager.default.fileExists(atPath: target) {
                // renameat2(2) RENAME_EXCHANGE: the new folder and the old swap atomically.
                guard CSystemShims_renameExchange(staging, target) == 0 else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                try? FileManager.default.removeItem(atPath: staging)
            } else {
                guard rename(staging, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw ACMEProblem.transport("cannot store the certificate in \(target): \(error)")
        }
    }

    /// An exclusive lock for ordering `name`, nil while another process holds it. The
    /// descriptor is the lock: closing it (`unlock`) releases it.
    func lock(_ name: String) -> Int32? {
        try? makeFolder()
        let path = (folder as NSString).appendingPathComponent(".lock-\(name)")
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    func unlock(_ fd: Int32) {
        close(fd)
    }

    private func makeFolder() throws(ACMEProblem) {
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            throw ACMEProblem.transport("cannot create \(folder): \(error)")
        }
    }

    /// Writes to a hidden temporary file of `mode` (created with it: a key is never readable
    /// by others, not even for a moment), fsyncs, and renames it into place.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(
            ".\((path as NSString).lastPathComponent).\(getpid()).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress?.advanced(by: written), $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                close(fd)
                unlink(temporary)
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            written += count
        }
        fchmod(fd, mode)
        fsync(fd)
        close(fd)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
