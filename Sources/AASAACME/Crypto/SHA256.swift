import AASATransport
import COpenSSL

/// SHA-256 (FIPS 180-4) through OpenSSL's EVP_Digest(3).
public enum SHA256 {
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        input.withUnsafeBytes { raw in
            _ = EVP_Digest(raw.baseAddress, raw.count, &output, &length, EVP_sha256(), nil)
        }
        return output
    }

    public static func digest(_ text: String) -> [UInt8] { digest(Array(text.utf8)) }
}
