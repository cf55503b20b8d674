import AASASystem
import COpenSSL
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@testable import AASATransport

/// Private key bytes read from disk are wiped on every path, and a load failed by the system's
/// state rather than the files is told apart (docs/certificates.md, "Many certificates").
@Suite("key bytes wiped; passing load failures told apart")
struct KeyWipingTests {
    @Test("a wipe zeroes the array's own buffer, in place")
    func wipesInPlace() {
        var bytes: [UInt8] = Array("-----BEGIN PRIVATE KEY-----".utf8)
        let before = bytes.withUnsafeBytes { $0.baseAddress }
        bytes.wipe()
        #expect(bytes.withUnsafeBytes { $0.baseAddress } == before)
        #expect(bytes.allSatisfy { $0 == 0 } && bytes.count == 27)
    }

    @Test("a file changed while read: each version read and let go is wiped before it is dropped")
    func changedWhileRead() throws {
        let folder = try TemporaryFolder()
        let secret = String(repeating: "k", count: 300)
        let path = try folder.write("privkey.pem", secret)
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let writer = open(path, O_WRONLY)
        try #require(writer >= 0)
        defer { close(writer) }
        var dropped: [[UInt8]] = []
        // Every read is followed by a write in place (the times change): each version is let go.
        let read = FileStatus.read(
            descriptor: fd, limit: 4096,
            afterRead: { _ = secret.utf8CString.withUnsafeBytes { pwrite(writer, $0.baseAddress, 300, 0) } },
            discard: { bytes in
                #expect(bytes == Array(secret.utf8))
                bytes.wipe()
                dropped.append(bytes)
            })
        guard case .changing = read else {
            Issue.record("not .changing: \(read)")
            return
        }
        #expect(dropped.count == FileStatus.changeAttempts)
        #expect(dropped.allSatisfy { $0.count == 300 && $0.allSatisfy { $0 == 0 } })
    }

    @Test("a .regular read's bytes are wiped in the read's one buffer")
    func readWiped() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("privkey.pem", "secret")
        var read = FileStatus.read(path, limit: 100)
        read.wipe()
        guard case .changing(let status) = read else {
            Issue.record("not wiped: \(read)")
            return
        }
        #expect(status.size == 6)
    }

    @Test("a chain file holding the private key too (before and after its certificates) loads")
    func keyInsideTheChain() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("both.test", names: ["both.test"])
        let pair = certificates.directory.appendingPathComponent("both.test").path
        let key = try String(contentsOfFile: pair + "/privkey.pem", encoding: .utf8)
        let chain = try String(contentsOfFile: pair + "/fullchain.pem", encoding: .utf8)
        for (name, text) in [("before.pem", key + chain), ("after.pem", chain + key)] {
            let file = try folder.write(name, text)
            _ = try LoadedCertificate(chainFile: file, keyFile: pair + "/privkey.pem", fileBytes: 0)
            // The index's OpenSSL parse skips the key block too, to the same leaf.
            let files = CertificateStore.Files(folder: pair, chain: file, key: pair + "/privkey.pem")
            let identity = CertificateStore.Identity(
                chain: try #require(FileStatus(files.chain)), key: try #require(FileStatus(files.key)))
            #expect(try CertificateStore.parse(files, identity: identity).names == ["both.test"], "\(name)")
            #expect(try CertificateStore.scan(files, identity: identity).names == ["both.test"], "\(name)")
        }
        // The blocks are read with OpenSSL's secure flag, so their buffers are cleared when freed.
        #expect(PEMFileBIO.blockFlags & UInt32(PEM_FLAG_SECURE) != 0)
    }

    @Test(
        "read failures of the system's state are passing; those of the files are not",
        arguments: [
            (EMFILE, true), (ENFILE, true), (ENOMEM, true), (EIO, true), (EINTR, true), (ENOENT, false),
            (EACCES, false), (ELOOP, false),
        ])
    func passing(errno code: Int32, passing: Bool) {
        #expect(PEMFileBIO.passingErrors.contains(code) == passing)
    }

    @Test("the files' own failures are not passing: missing, a FIFO, not a key")
    func filesFailures() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("fifo.pem").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let garbage = try folder.write("garbage.pem", "not a certificate")
        for path in [folder.url.appendingPathComponent("missing.pem").path, fifo, garbage] {
            do {
                _ = try LoadedCertificate(chainFile: path, keyFile: path, fileBytes: 0)
                Issue.record("\(path) loaded")
            } catch {
                #expect(!error.passing, "\(error)")
            }
        }
    }

    @Test(
        "the wait before a pair is tried again doubles from 1 s to 60 s",
        arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (6, 32), (7, 60), (8, 60), (1000, 60)])
    func backoff(failures: Int, seconds: UInt64) {
        #expect(CertificateCache.retryDelay(failures: failures) == seconds * 1_000_000_000)
    }
}
