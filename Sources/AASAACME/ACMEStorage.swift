import AASASystem
import AASATransport
import CSystemShims
import Foundation
@preconcurrency import Glibc

/// The `acme/` folder under `--certs` (docs/usage.md, "Automatic certificates"), mode 0700, checked
/// at every use: `accounts/` (0700) with one key (0600) per issuer directory, and one folder
/// (0700) per certificate in certbot's layout, `fullchain.pem` and `privkey.pem` (0600),
/// which the certificate loader reads like any other pair, and `issuer` (the directory it
/// came from). A
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

    /// The one account key of versions before several issuers: the first issuer adopts it.
    var legacyAccountKeyPath: String { (folder as NSString).appendingPathComponent("account.key") }

    /// `acme/accounts/HOST[_PORT]-HASH.key`: one account per issuer directory (an account
    /// belongs to one CA), named by its host and the first 12 hex digits of the SHA-256 of
    /// the directory URL (two directories on one host stay apart).
    public func accountKeyPath(directory: String) -> String {
        let host = HTTPSURL(directory).map { $0.port == 443 ? $0.host : "\($0.host)_\($0.port)" } ?? "directory"
        let safe = String(
            decoding: host.utf8.map { byte in
                (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) || byte == 0x2E || byte == 0x2D
                    ? byte : UInt8(ascii: "_")
            }, as: UTF8.self)
        let hash = SHA256.digest(directory).prefix(6).map { String(format: "%02x", $0) }.joined()
        return (folder as NSString).appendingPathComponent("accounts/\(safe)-\(hash).key")
    }

    /// The account key for `directory`, made once (P-256) and reused by every later start;
    /// `adoptLegacy` takes over `account.key` when there is one and no key of its own yet.
    func accountKey(directory: String, adoptLegacy: Bool) throws(ACMEProblem) -> ECKey {
        let path = accountKeyPath(directory: directory)
        try makeFolder()
        let accounts = (path as NSString).deletingLastPathComponent
        do throws(SystemError) {
            try Self.makeFolderIfMissing(accounts)
        } catch {
            throw ACMEProblem.transport("cannot make \(accounts): \(error)")
        }
        do { try Self.enforcePrivate(accounts) } catch {
            throw ACMEProblem.transport("cannot use \(accounts): \(error)")
        }
        var pem = try readKey(path)
        if pem == nil, adoptLegacy, let legacy = try readKey(legacyAccountKeyPath) {
            do { try Self.writeAtomically(legacy, to: path, mode: 0o600) } catch {
                throw ACMEProblem.transport("cannot copy \(legacyAccountKeyPath) to \(path): \(error)")
            }
            pem = legacy
        }
        if let pem {
            do { return try ECKey(pem: pem) } catch {
                throw ACMEProblem.transport("\(path): \(error)")
            }
        }
        do {
            let key = try ECKey.generate()
            try Self.writeAtomically(key.pem(), to: path, mode: 0o600)
            return key
        } catch {
            throw ACMEProblem.transport("cannot create the account key \(path): \(error)")
        }
    }

    /// The directory a stored certificate was ordered from (`acme/NAME/issuer`, written with
    /// it); nil for a certificate stored before issuers were recorded, or placed by hand.
    func issuerDirectory(ofFolder certificateFolder: String) -> String? {
        let path = (certificateFolder as NSString).appendingPathComponent("issuer")
        guard let fd = try? Posix.open(path, O_RDONLY | O_NOFOLLOW) else { return nil }
        defer { Posix.close(fd) }
        guard let bytes = try? Posix.readAll(fd, limit: 2048), !bytes.isEmpty, bytes.count < 2048 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.hasPrefix("https://") ? text : nil
    }

    /// A key file's bytes, nil when there is none; a mode looser than 0600 is tightened first
    /// (on the opened file, O_NOFOLLOW: a link is refused).
    func readKey(_ path: String) throws(ACMEProblem) -> [UInt8]? {
        do throws(SystemError) {
            let fd = try Posix.open(path, O_RDONLY | O_NOFOLLOW)
            defer { Posix.close(fd) }
            if try Posix.status(fd).st_mode & 0o077 != 0 { try Posix.changeMode(fd, 0o600) }
            return try Posix.readAll(fd, limit: Self.keyFileLimit)
        } catch let error where error.errno == ENOENT {
            return nil
        } catch {
            throw ACMEProblem.transport("\(path): \(error)")
        }
    }

    /// More than any PEM key this program writes (a P-256 key is under 300 bytes): a larger
    /// file is read only this far, and its parse fails.
    static let keyFileLimit = 64 * 1024

    /// Stores an issued certificate as `acme/NAME/` (replacing an older one in one step).
    /// The staging folder has an unpredictable name and is made by mkdir(2), which never
    /// follows or reuses what is already there. Each file, the staging folder and `acme/`
    /// are synced (`sync`, fsync(2)); a failure is an error, so a certificate that may not be
    /// on disk is never reported as stored.
    func store(
        _ issued: CertificateIssuer.Issued, name: String, directory: String, sync: Sync = Posix.fsync
    ) throws(ACMEProblem) {
        let target = certificateFolder(name)
        let staging = (folder as NSString).appendingPathComponent(".new-\(name)-\(Self.randomSuffix())")
        do {
            try makeFolder()
            try Posix.makeFolder(staging, mode: 0o700)
            try Self.writeAtomically(
                issued.keyPEM, to: (staging as NSString).appendingPathComponent("privkey.pem"), mode: 0o600, sync: sync)
            try Self.writeAtomically(
                issued.chainPEM, to: (staging as NSString).appendingPathComponent("fullchain.pem"), mode: 0o644,
                sync: sync)
            try Self.writeAtomically(
                Array((directory + "\n").utf8), to: (staging as NSString).appendingPathComponent("issuer"),
                mode: 0o644, sync: sync)
            if FileManager.default.fileExists(atPath: target) {
                // renameat2(2) RENAME_EXCHANGE: the new folder and the old swap atomically.
                _ = try Posix.check("renameat2", path: target) { CSystemShims_renameExchange(staging, target) }
                // The old certificate, now under the staging name: left behind it is only clutter.
                try? FileManager.default.removeItem(atPath: staging)
            } else {
                try Posix.rename(staging, to: target)
            }
            try Self.syncFolder(folder, sync: sync)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw ACMEProblem.transport("cannot store the certificate in \(target): \(error)")
        }
    }

    /// An exclusive lock for ordering `name`, nil while another process holds it. The
    /// descriptor is the lock: closing it (`unlock`) releases it. O_NOFOLLOW: a link planted
    /// under the lock's name is refused, never opened.
    func lock(_ name: String) -> Int32? {
        try? makeFolder()
        let path = (folder as NSString).appendingPathComponent(".lock-\(name)")
        guard let fd = try? Posix.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600) else { return nil }
        guard (try? Posix.tryLockExclusive(fd)) == true else {
            Posix.close(fd)
            return nil
        }
        return fd
    }

    func unlock(_ fd: Int32) {
        Posix.close(fd)
    }

    /// Makes `acme/` (0700: it holds the account key) or, when it exists, enforces its mode:
    /// a looser one is tightened; a folder of another user is refused, as its owner could
    /// read or swap the keys.
    func makeFolder() throws(ACMEProblem) {
        do {
            let parent = (folder as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try Self.makeFolderIfMissing(folder)
            try Self.enforcePrivate(folder)
        } catch let problem as ACMEProblem {
            throw ACMEProblem.transport("cannot use \(folder): \(problem.detail)")
        } catch {
            throw ACMEProblem.transport("cannot use \(folder): \(error)")
        }
    }

    /// A folder this user owns with mode 0700 (fchmod(2) on the opened folder, so a swap
    /// between the check and the change cannot redirect it).
    static func enforcePrivate(_ path: String) throws {
        let fd = try Posix.open(path, O_RDONLY | O_DIRECTORY)
        defer { Posix.close(fd) }
        let status = try Posix.status(fd)
        guard status.st_uid == geteuid() else {
            throw ACMEProblem.transport(
                "it belongs to user \(status.st_uid), not to this process's user \(geteuid()); "
                    + "give it to this user or remove it")
        }
        if status.st_mode & 0o7777 != 0o700 {
            try Posix.changeMode(fd, 0o700)
        }
    }

    /// mkdir(2) of `path` (0700), which may already exist.
    static func makeFolderIfMissing(_ path: String) throws(SystemError) {
        do throws(SystemError) {
            try Posix.makeFolder(path, mode: 0o700)
        } catch let error where error.errno == EEXIST {}
    }

    /// 16 random hex digits: a temporary name no other process can plant a link at beforehand.
    static func randomSuffix() -> String {
        let value = UInt64.random(in: .min ... .max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Writes to a hidden temporary file of `mode` (created with it: a key is never readable
    /// by others, not even for a moment), fsyncs, and renames it into place. The temporary
    /// name is unpredictable and open(2) has O_EXCL|O_NOFOLLOW, so nothing already there,
    /// a link least of all, is ever written through. A failed fsync(2) is a failure: the
    /// bytes may not be on disk (fsync(2), ERRORS), so the file is not reported as stored.
    /// `sync` is fsync(2); a test passes one that fails, which no file system it can write to
    /// does.
    static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t, sync: Sync = Posix.fsync
    ) throws(SystemError) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(
            ".\((path as NSString).lastPathComponent).\(randomSuffix()).tmp")
        let fd = try Posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
        do throws(SystemError) {
            try Posix.writeAll(fd, bytes, path: temporary)
            try Posix.changeMode(fd, mode)
            try sync(fd, temporary)
        } catch {
            // The error is already held: what close or unlink do to errno cannot change it.
            Posix.close(fd)
            try? Posix.unlink(temporary)
            throw error
        }
        Posix.close(fd)
        do throws(SystemError) {
            try Posix.rename(temporary, to: path)
        } catch {
            try? Posix.unlink(temporary)
            throw error
        }
        try syncFolder(folder, sync: sync)
    }

    /// fsync(2) of a descriptor, named by its path for the error.
    typealias Sync = (Int32, String?) throws(SystemError) -> Void

    /// fsync(2) of a folder, so a rename in it survives a crash.
    static func syncFolder(_ path: String, sync: Sync = Posix.fsync) throws(SystemError) {
        let fd = try Posix.open(path, O_RDONLY | O_DIRECTORY)
        defer { Posix.close(fd) }
        try sync(fd, path)
    }
}
