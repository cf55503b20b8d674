import Foundation

/// CMS-signed association files made at test time with `openssl cms -sign`, as Apple's iOS 8
/// instructions sign them (openssl-cms(1): `-nodetach -binary`), by signers from a test CA:
/// one for example.com, one for another name, one expired.
public struct SignedFiles {
    public let folder: TemporaryFolder
    public let certificates: TestCertificates
    public var caFile: String { certificates.caFile }

    /// A file with enough components to be worth compressing, its one error-free rule first.
    public static let json =
        "{\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"],\n  \"components\": ["
        + "{\"/\": \"/buy/*\"}"
        + (0..<40).map { ", {\"/\": \"/product/\($0)/*\", \"comment\": \"product page \($0)\"}" }.joined()
        + "]}]}}\n"

    public init(in folder: TemporaryFolder) throws {
        self.folder = folder
        certificates = try TestCertificates(in: folder)
        try certificates.issue("signer", names: ["example.com"], days: 365)
        try certificates.issue("other", names: ["other.example"], days: 365)
        try certificates.issueBackdated("expired", names: ["example.com"], daysAgo: 30, daysLeft: -1)
    }

    /// `content` signed by the signer of `certs/<signer>/`, DER or PEM, with the chain inside.
    public func sign(_ content: String = json, by signer: String = "signer", pem: Bool = false) throws -> Data {
        let name = UUID().uuidString
        let input = try folder.write("signing/\(name).json", content)
        let output = folder.url.appendingPathComponent("signing/\(name).p7").path
        let chain = certificates.directory.appendingPathComponent("\(signer)/fullchain.pem").path
        try TestCertificates.openssl([
            "cms", "-sign", "-nodetach", "-binary", "-in", input, "-signer", chain,
            "-inkey", certificates.directory.appendingPathComponent("\(signer)/privkey.pem").path,
            "-certfile", caFile, "-outform", pem ? "PEM" : "DER", "-out", output,
        ])
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    /// A DER file whose content was changed after signing: `/buy/` becomes `/bux/`.
    public func tampered() throws -> Data {
        var bytes = try sign()
        guard let range = bytes.range(of: Data("/buy/".utf8)) else {
            throw TestCertificates.Failure(description: "no /buy/ in the signed file")
        }
        bytes[range.lowerBound + 3] = UInt8(ascii: "x")
        return bytes
    }
}
