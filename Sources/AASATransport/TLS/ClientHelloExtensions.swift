import AssociationKit
import COpenSSL

/// The two ClientHello extensions the certificate choice reads, taken from the raw bytes
/// (SSL_client_hello_get0_ext(3)): inside the ClientHello callback OpenSSL has not yet
/// parsed them into SSL_get_servername(3).
enum ClientHelloExtensions {
    static let serverNameType: UInt32 = 0
    static let applicationLayerProtocolType: UInt32 = 16
    static let acmeTLS1 = Array("acme-tls/1".utf8)

    /// The host_name of server_name (RFC 6066 §3) as the one host normalizer keys it
    /// (`HostName.key`: lower-cased, no trailing dot; nil for bytes no host name has).
    static func serverName(_ ssl: OpaquePointer) -> String? {
        guard let bytes = extensionBytes(ssl, serverNameType), bytes.count >= 5 else { return nil }
        let listLength = Int(bytes[0]) << 8 | Int(bytes[1])
        guard listLength + 2 <= bytes.count else { return nil }
        var index = 2
        while index + 3 <= 2 + listLength {
            let type = bytes[index]
            let length = Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            let start = index + 3
            guard start + length <= bytes.count else { return nil }
            if type == 0 { return HostName.key(bytes, start..<(start + length)) }
            index = start + length
        }
        return nil
    }

    /// Whether the ALPN list (RFC 7301 §3.1) offers `acme-tls/1`.
    static func offersACMETLS(_ ssl: OpaquePointer) -> Bool {
        guard let bytes = extensionBytes(ssl, applicationLayerProtocolType), bytes.count >= 2 else { return false }
        var index = 2
        while index < bytes.count {
            let length = Int(bytes[index])
            let start = index + 1
            guard start + length <= bytes.count else { return false }
            if length == acmeTLS1.count, bytes[start..<(start + length)].elementsEqual(acmeTLS1) { return true }
            index = start + length
        }
        return false
    }

    /// The extension's bytes inside OpenSSL's copy of the ClientHello (valid for the callback).
    private static func extensionBytes(_ ssl: OpaquePointer, _ type: UInt32) -> UnsafeBufferPointer<UInt8>? {
        var data: UnsafePointer<UInt8>?
        var length = 0
        guard SSL_client_hello_get0_ext(ssl, type, &data, &length) == 1, let data else { return nil }
        return UnsafeBufferPointer(start: data, count: length)
    }
}
