import AASASystem
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@testable import AASAACME

/// The `acme/` folder's files are made as checked (docs/acme.md, "Automatic certificates",
/// Storage): modes enforced on a folder that exists, temporary files never written through
/// a link.
@Suite("ACME storage")
struct ACMEStorageTests {
    let temporary: TemporaryFolder
    /// The test's certificates folder.
    var certificates: String { temporary.path() }

    init() throws {
        temporary = try TemporaryFolder("acme")
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    @Test("a folder made 0755 beforehand ends 0700, a key 0644 ends 0600")
    func modesEnforced() throws {
        let storage = ACMEStorage(certificates: certificates)
        #expect(mkdir(storage.folder, 0o755) == 0)
        #expect(chmod(storage.folder, 0o755) == 0)
        let directory = "https://acme.example/dir"
        let path = storage.accountKeyPath(directory: directory)
        let key = try storage.accountKey(directory: directory, adoptLegacy: false)
        #expect(Self.mode(storage.folder) == 0o700)
        #expect(Self.mode(path) == 0o600)
        #expect(chmod(path, 0o644) == 0 && chmod(storage.folder, 0o777) == 0)
        #expect(try storage.accountKey(directory: directory, adoptLegacy: false).jwk == key.jwk)
        #expect(Self.mode(storage.folder) == 0o700)
        #expect(Self.mode(path) == 0o600)
    }

    @Test(
        "a folder of another user is refused with a clear message",
        .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func foreignFolder() throws {
        let storage = ACMEStorage(certificates: certificates)
        #expect(mkdir(storage.folder, 0o700) == 0)
        #expect(chown(storage.folder, 65534, 65534) == 0)
        #expect {
            try storage.accountKey(directory: "https://acme.example/dir", adoptLegacy: false)
        } throws: { error in
            "\(error)".contains("belongs to user 65534")
        }
    }

    @Test("a link planted at the temporary name of before is not followed; the write is whole")
    func plantedLink() throws {
        let folder = certificates
        let victim = (folder as NSString).appendingPathComponent("victim")
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        let target = (folder as NSString).appendingPathComponent("privkey.pem")
        // The name the temporary file had before it got a random part.
        let predictable = (folder as NSString).appendingPathComponent(".privkey.pem.\(getpid()).tmp")
        #expect(symlink(victim, predictable) == 0)
        try ACMEStorage.writeAtomically(Array("secret".utf8), to: target, mode: 0o600)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: victim)), as: UTF8.self) == "untouched")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: target)), as: UTF8.self) == "secret")
        #expect(Self.mode(target) == 0o600)
        // Nothing else is left behind: the link planted and the two files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 3)
    }

    @Test("temporary names are unpredictable")
    func randomNames() {
        let names = Set((0..<100).map { _ in ACMEStorage.randomSuffix() })
        #expect(names.count == 100 && names.allSatisfy { $0.utf8.count == 16 })
    }

    @Test("a lock file that is a planted link is refused")
    func lockLink() throws {
        let storage = ACMEStorage(certificates: certificates)
        try storage.makeFolder()
        let victim = (storage.folder as NSString).appendingPathComponent("victim")
        try Data().write(to: URL(fileURLWithPath: victim))
        #expect(symlink(victim, (storage.folder as NSString).appendingPathComponent(".lock-x.example.com")) == 0)
        #expect(storage.lock("x.example.com") == nil)
        let fd = try #require(storage.lock("y.example.com"))
        storage.unlock(fd)
    }

    /// Storing a certificate syncs each of its three files, the staging folder after each, and
    /// `acme/`: seven fsync(2) calls. Whichever of them fails, the certificate is not reported
    /// as stored and no staging folder is left; no file system a test can write to fails an
    /// fsync, so `sync` fails on purpose.
    @Test("a failed fsync is a failure to store, whichever it is", arguments: 1...7)
    func failedSync(failing: Int) throws {
        let storage = ACMEStorage(certificates: certificates)
        let issued = CertificateIssuer.Issued(keyPEM: Array("key".utf8), chainPEM: Array("chain".utf8))
        var calls = 0
        var problem: ACMEProblem?
        do throws(ACMEProblem) {
            try storage.store(issued, name: "x.example.com", directory: "https://acme.example/dir") {
                _, path throws(SystemError) in
                calls += 1
                if calls == failing { throw SystemError("fsync", errno: EIO, path: path) }
            }
        } catch {
            problem = error
        }
        #expect(calls == failing)
        #expect(problem?.detail.contains("fsync") == true)
        #expect(problem?.detail.contains(String(cString: strerror(EIO))) == true)
        let left = try FileManager.default.contentsOfDirectory(atPath: storage.folder)
        #expect(!left.contains { $0.hasPrefix(".new-") })
        // Only the last sync, of `acme/` itself, comes after the folder is in place.
        #expect(left.contains("x.example.com") == (failing == 7))
    }

    @Test("a certificate whose every fsync succeeds is stored")
    func syncedStore() throws {
        let storage = ACMEStorage(certificates: certificates)
        let issued = CertificateIssuer.Issued(keyPEM: Array("key".utf8), chainPEM: Array("chain".utf8))
        var calls = 0
        try storage.store(issued, name: "x.example.com", directory: "https://acme.example/dir") {
            fd, path throws(SystemError) in
            calls += 1
            try Posix.fsync(fd, path: path)
        }
        #expect(calls == 7)
        let stored = try FileManager.default.contentsOfDirectory(atPath: storage.certificateFolder("x.example.com"))
        #expect(Set(stored) == ["privkey.pem", "fullchain.pem", "issuer"])
    }
}
