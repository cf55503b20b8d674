import AASATransport
import COpenSSL

/// HMAC-SHA256 (RFC 2104, FIPS 180-4) through OpenSSL's HMAC(3): what ACME's external
/// account binding signs with (RFC 8555 §7.3.4, "HS256" of RFC 7518 §3.2).
public enum HMACSHA256 {
    public static func authenticate(_ message: some Collection<UInt8>, key: [UInt8]) -> [UInt8] {
        let input = Array(message)
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        key.withUnsafeBytes { keyBytes in
            input.withUnsafeBytes { raw in
                _ = HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                    raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &output, &length)
            }
        }
        return output
    }
}
