import AASASystem
import AASATransport
import Foundation
import TestSupport
import Testing

/// The certificate index reads leaf certificates with its own DER scan (`LeafScan`); what it
/// finds must be what OpenSSL's parse finds, for the kinds of certificate a folder holds.
@Suite("the certificate index's leaf scan agrees with OpenSSL")
struct LeafScanTests {
    @Test("names, dates, issuer, serial, authority key identifier and key type, as OpenSSL reads them")
    func agreesWithOpenSSL() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        let kinds: [(String, [String], Bool)] = [
            ("exact.test", ["exact.test", "www.exact.test"], false),
            ("wild.test", ["*.wild.test"], false),
            ("Mixed.Case.test", ["Mixed.Case.test"], false),
            ("rsa.test", ["rsa.test"], true),
            ("address.test", ["address.test", "127.0.0.1"], false),
        ]
        for (name, names, rsa) in kinds { try certificates.issue(name, names: names, rsa: rsa) }
        try certificates.issueBackdated("old.test", names: ["old.test"], daysAgo: 30, daysLeft: 5)
        for name in kinds.map(\.0) + ["old.test"] {
            let path = certificates.directory.appendingPathComponent(name).path
            let files = CertificateStore.Files(
                folder: path, chain: path + "/fullchain.pem", key: path + "/privkey.pem")
            let identity = CertificateStore.Identity(
                chain: try #require(FileStatus(files.chain)), key: try #require(FileStatus(files.key)))
            // Read by the scan itself, not by its fallback to OpenSSL.
            let pem = try Data(contentsOf: URL(fileURLWithPath: files.chain))
            #expect(LeafScan(pem: Array(pem)) != nil, "\(name)")
            let scanned = try CertificateStore.scan(files, identity: identity)
            let parsed = try CertificateStore.parse(files, identity: identity)
            #expect(scanned.names == parsed.names, "\(name)")
            #expect(scanned.notBefore == parsed.notBefore && scanned.notAfter == parsed.notAfter, "\(name)")
            #expect(scanned.issuer == parsed.issuer, "\(name)")
            #expect(scanned.serialNumber == parsed.serialNumber, "\(name)")
            #expect(scanned.authorityKeyID == parsed.authorityKeyID, "\(name)")
            #expect(scanned.rsaKey == parsed.rsaKey && scanned.rsaKey == (name == "rsa.test"), "\(name)")
        }
    }
}
