/// An association file signed as CMS SignedData (RFC 5652 §5), as iOS 8 required
/// (docs/association-files.md, "Signed files"): the JSON it carries and what verifying the
/// signature found. A reader that links a CMS implementation builds it (`SignedFileReader`);
/// this library only recognizes the wrapping and judges what the reader found.
public struct SignedEnvelope: Sendable, Hashable {
    public enum Encoding: String, Sendable, Hashable {
        case der = "DER"
        case pem = "PEM"
    }

    /// Whether the signature over the content holds (RFC 5652 §5.6), the signer's
    /// certificate aside: `failed` says why, in OpenSSL's words.
    public enum Signature: Sendable, Hashable {
        case verified
        case failed(String)
    }

    /// Whether the signer's certificate chains to a trusted root (the system's store, or the
    /// one given), validity dates aside: those are judged on their own.
    public enum Trust: Sendable, Hashable {
        case trusted
        case untrusted(String)
    }

    public var encoding: Encoding
    /// The encapsulated content, nil when the signature is detached (no content inside).
    public var content: [UInt8]?
    public var signature: Signature
    public var trust: Trust
    /// The first signer's certificate, when the SignedData carries it.
    public var signer: SignerCertificate?

    public init(
        encoding: Encoding, content: [UInt8]?, signature: Signature, trust: Trust, signer: SignerCertificate?
    ) {
        self.encoding = encoding
        self.content = content
        self.signature = signature
        self.trust = trust
        self.signer = signer
    }

    /// The encoding when `bytes` look like CMS SignedData rather than JSON: DER starting with a
    /// SEQUENCE whose ContentInfo names id-signedData (1.2.840.113549.1.7.2, RFC 5652 §5.1)
    /// near the start, or a PEM block labelled PKCS7 or CMS (RFC 7468 §8). Cheap, and needs
    /// no CMS implementation, so a build without one still tells a signed file from bad JSON.
    public static func encoding(of bytes: [UInt8]) -> Encoding? {
        if bytes.first == 0x30 {
            let head = bytes.prefix(24)
            guard head.count >= signedDataOID.count else { return nil }
            for start in head.indices.dropLast(signedDataOID.count - 1)
            where head[start..<(start + signedDataOID.count)].elementsEqual(signedDataOID) {
                return .der
            }
            return nil
        }
        let text = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return pemLabels.contains { text.starts(with: $0) } ? .pem : nil
    }

    /// The OBJECT IDENTIFIER 1.2.840.113549.1.7.2, tag and length included.
    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let pemLabels: [[UInt8]] = ["-----BEGIN PKCS7-----", "-----BEGIN CMS-----"].map { Array($0.utf8) }
}
