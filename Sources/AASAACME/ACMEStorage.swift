import AASAStore
import AASASystem
import AASATransport
import CSystemShims
import Foundation
@preconcurrency import Glibc

/// The `acme/` folder under `--certs` (docs/acme.md, "Automatic certificates"), mode 0700, checked
/// at every use: `accounts/` (0700) with one key (0600) per issuer directory, and one folder
/// (0700) per certificate in certbot's layout, `fullchain.pem` and `privkey.pem` (0600),
/// which the certificate loader reads like any other pair, and `issuer` (the directory it
/// came from). A
/// certificate folder is written whole under a hidden name and swapped into place with one
/// rename(2), so a reload never sees half of a pair. `.lock-NAME` files (flock(2)) keep
/// replicas that share the folder from ordering the same name twice. The file-system care is
/// the folder engine's (`FolderStore`, `FolderFiles` in AASAStore).
public struct ACMEStorage: Sendable {
    public let folder: String
    /// The folder as a store.
    public let files: FolderStore

    /// The store's own folders under `acme/` (docs/acme.md, "Several replicas"): pending
    /// challenges, failure backoffs, pre-flight tokens and the watches' leader and results.
    /// They hold no certificate, so neither the file watcher nor the certificate loader needs them.
    public static let storeOnlyFolders: Set<String> = ["challenges", "backoff", "preflight", "watches"]

    public init(certificates: String) {
        folder = (certificates as NSString).appendingPathComponent("acme")
        files = FolderStore(folder: folder)
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
            try FolderFiles.makeFolderIfMissing(accounts)
        } catch {
            throw ACMEProblem.transport("cannot make \(accounts): \(error)")
        }
        do throws(StoreError) { try FolderFiles.enforcePrivate(accounts) } catch {
            throw ACMEProblem.transport(error.detail)
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
            return try FolderFiles.read(path, limit: Self.keyFileLimit, tighten: true)
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
        guard let key = StoreKey(name + "/privkey.pem"), let chain = StoreKey(name + "/fullchain.pem"),
            let issuer = StoreKey(name + "/issuer")
        else {
            throw ACMEProblem.transport("cannot store the certificate in \(target): \(name) is not a safe folder name")
        }
        do throws(StoreError) {
            try files.storeAll(
                [(key, issued.keyPEM), (chain, issued.chainPEM), (issuer, Array((directory + "\n").utf8))], sync: sync)
        } catch {
            throw ACMEProblem.transport("cannot store the certificate in \(target): \(error.detail)")
        }
    }

    /// An exclusive lock for ordering `name`, nil while another process holds it. The
    /// descriptor is the lock: closing it (`unlock`) releases it. O_NOFOLLOW: a link planted
    /// under the lock's name is refused, never opened.
    func lock(_ name: String) -> StoreLock? {
        try? files.tryLock(name)
    }

    func unlock(_ lock: StoreLock) {
        files.unlock(lock)
    }

    /// Makes `acme/` (0700: it holds the account key) or, when it exists, enforces its mode:
    /// a looser one is tightened; a folder of another user is refused, as its owner could
    /// read or swap the keys.
    func makeFolder() throws(ACMEProblem) {
        do throws(StoreError) {
            try files.prepare()
        } catch {
            throw ACMEProblem.transport("cannot use \(folder): \(error.detail)")
        }
    }

    /// 16 random hex digits (`FolderFiles.randomSuffix`).
    static func randomSuffix() -> String { FolderFiles.randomSuffix() }

    /// `FolderFiles.writeAtomically`: whole, synced, never through a link.
    static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t, sync: Sync = Posix.fsync
    ) throws(SystemError) {
        try FolderFiles.writeAtomically(bytes, to: path, mode: mode, sync: sync)
    }

    /// fsync(2) of a descriptor, named by its path for the error.
    typealias Sync = FolderFiles.Sync
}
