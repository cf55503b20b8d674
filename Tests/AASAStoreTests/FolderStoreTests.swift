import AASASystem
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@testable import AASAStore

/// What only the folder engine does: modes, links, the staging folder (the shared table is
/// `SharedStoreTests`).
@Suite("Folder store")
struct FolderStoreTests {
    let temporary: TemporaryFolder
    let store: FolderStore

    init() throws {
        temporary = try TemporaryFolder("store")
        store = FolderStore(folder: temporary.path("acme"))
    }

    static func mode(_ path: String) -> mode_t {
        var status = Glibc.stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    static func key(_ text: String) throws -> StoreKey { try #require(StoreKey(text)) }

    @Test("folders are 0700, private keys 0600, other files 0644; a loose key is tightened on read")
    func modes() throws {
        try store.store(Self.key("x.example.com/privkey.pem"), Array("key".utf8))
        try store.store(Self.key("x.example.com/fullchain.pem"), Array("chain".utf8))
        #expect(Self.mode(store.folder) == 0o700)
        #expect(Self.mode(store.folder + "/x.example.com") == 0o700)
        #expect(Self.mode(store.folder + "/x.example.com/privkey.pem") == 0o600)
        #expect(Self.mode(store.folder + "/x.example.com/fullchain.pem") == 0o644)
        #expect(chmod(store.folder + "/x.example.com/privkey.pem", 0o644) == 0)
        #expect(try store.load(Self.key("x.example.com/privkey.pem")) == Array("key".utf8))
        #expect(Self.mode(store.folder + "/x.example.com/privkey.pem") == 0o600)
    }

    @Test("a link in place of a value is neither read nor listed; one planted as a lock is refused")
    func links() throws {
        try store.prepare()
        let victim = try temporary.write("victim", "secret")
        #expect(symlink(victim, store.folder + "/planted") == 0)
        #expect(throws: StoreError.self) { try store.load(Self.key("planted")) }
        #expect(try store.list(prefix: "").isEmpty)
        #expect(symlink(victim, store.folder + "/.lock-x.example.com") == 0)
        #expect(throws: StoreError.self) { try store.tryLock("x.example.com") }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "secret")
    }

    @Test("storeAll keeps the folder's other files and leaves no staging folder")
    func storeAllKeepsOthers() throws {
        try store.store(Self.key("n/extra"), Array("kept".utf8))
        try store.storeAll([(Self.key("n/a"), Array("1".utf8)), (Self.key("n/b"), Array("2".utf8))])
        try store.storeAll([(Self.key("n/a"), Array("3".utf8))])
        #expect(try store.list(prefix: "n/").map(\.text) == ["n/a", "n/b", "n/extra"])
        #expect(try store.load(Self.key("n/a")) == Array("3".utf8))
        #expect(try store.load(Self.key("n/extra")) == Array("kept".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.folder).filter { $0.hasPrefix(".new-") }.isEmpty)
    }

    @Test("storeAll across folders, at the top, or over a folder with folders is refused")
    func storeAllRefused() throws {
        #expect(throws: StoreError.self) {
            try store.storeAll([(Self.key("a/x"), [1]), (Self.key("b/x"), [2])])
        }
        #expect(throws: StoreError.self) { try store.storeAll([(Self.key("x"), [1])]) }
        try store.store(Self.key("w/cdn/r"), [1])
        #expect(throws: StoreError.self) { try store.storeAll([(Self.key("w/x"), [1])]) }
        #expect(try store.load(Self.key("w/x")) == nil)
    }

    /// Three files: each and the staging folder after each, then the parent: seven fsync(2)
    /// calls; whichever fails, nothing is stored and no staging folder is left.
    @Test("a failed fsync fails storeAll, whichever it is", arguments: 1...7)
    func failedSync(failing: Int) throws {
        var calls = 0
        let entries = try [("c/privkey.pem", "k"), ("c/fullchain.pem", "c"), ("c/issuer", "i")].map {
            (try Self.key($0.0), Array($0.1.utf8))
        }
        #expect(throws: StoreError.self) {
            try store.storeAll(entries) { _, path throws(SystemError) in
                calls += 1
                if calls == failing { throw SystemError("fsync", errno: EIO, path: path) }
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: store.folder)
        #expect(!left.contains { $0.hasPrefix(".new-") })
        #expect(left.contains("c") == (failing == 7))
    }

    @Test("deleting a folder's last file removes the folder")
    func deleteEmpties() throws {
        try store.store(Self.key("challenges/http-01/t"), [1])
        try store.delete(Self.key("challenges/http-01/t"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder).filter { !$0.hasPrefix(".") } == [])
    }

    @Test("a folder of another user is refused", .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func foreignFolder() throws {
        #expect(mkdir(store.folder, 0o700) == 0)
        #expect(chown(store.folder, 65534, 65534) == 0)
        #expect {
            try store.store(Self.key("x"), [1])
        } throws: { error in
            "\(error)".contains("belongs to user 65534")
        }
    }

    @Test("a key file is refused for a folder store")
    func keyFileRefused() throws {
        #expect(throws: StoreError.self) { try openStore(.folder(store.folder), keyFile: "/k") }
    }
}
