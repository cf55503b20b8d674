import AASASystem
import COpenSSL
import Foundation
@preconcurrency import Glibc

/// AES-256-GCM over the private keys a PostgreSQL store holds (`--store-key-file`), so a dump
/// or a backup of the database alone does not give them away. A sealed value is
/// `MAGIC ‖ nonce (12) ‖ ciphertext ‖ tag (16)`, a fresh random nonce per value, and the key's
/// name as associated data, so a value cannot be moved to another key unnoticed.
public final class StoreCipher: Sendable {
    private let key: [UInt8]

    /// Starts every sealed value; no PEM (or other text) starts with a NUL.
    static let magic: [UInt8] = [0x00, 0x41, 0x45, 0x31]  // "\0AE1"
    static let nonceLength = 12
    static let tagLength = 16

    public init(key: [UInt8]) throws(StoreError) {
        guard key.count == 32 else { throw StoreError.refused("a store key is 32 bytes, not \(key.count)") }
        self.key = key
    }

    /// The key from `path`: 32 bytes as they are, or written as 64 hex digits or in base64
    /// (as `openssl rand -hex 32` and `openssl rand -base64 32` write them).
    public convenience init(keyFile path: String) throws(StoreError) {
        let bytes: [UInt8]
        do throws(SystemError) {
            let fd = try Posix.open(path, O_RDONLY)
            defer { Posix.close(fd) }
            bytes = try Posix.readAll(fd, limit: 1024)
        } catch {
            throw StoreError.refused("--store-key-file: \(error)")
        }
        guard let key = Self.parseKey(bytes) else {
            throw StoreError.refused(
                "--store-key-file \(path): not a 32-byte key (32 bytes, 64 hex digits or base64 of 32 bytes)")
        }
        try self.init(key: key)
    }

    static func parseKey(_ bytes: [UInt8]) -> [UInt8]? {
        if bytes.count == 32 { return bytes }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.utf8.count == 64, let hex = hexBytes(text) { return hex }
        if let data = Data(base64Encoded: text), data.count == 32 { return Array(data) }
        return nil
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        var result: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            result.append(value)
        }
        return result
    }

    static func isSealed(_ value: [UInt8]) -> Bool { value.starts(with: magic) }

    func seal(_ plain: [UInt8], for storeKey: StoreKey) throws(StoreError) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: Self.nonceLength)
        guard RAND_bytes(&nonce, Int32(nonce.count)) == 1 else { throw StoreError.io("RAND_bytes failed") }
        var output = [UInt8](repeating: 0, count: plain.count + Self.tagLength)
        var tag = [UInt8](repeating: 0, count: Self.tagLength)
        let written = try crypt(
            encrypt: true, input: plain, nonce: nonce, associated: Array(storeKey.text.utf8),
            output: &output, tag: &tag)
        return Self.magic + nonce + output.prefix(written) + tag
    }

    func open(_ sealed: [UInt8], for storeKey: StoreKey) throws(StoreError) -> [UInt8] {
        let header = Self.magic.count + Self.nonceLength
        guard Self.isSealed(sealed), sealed.count >= header + Self.tagLength else {
            throw StoreError.refused("\(storeKey): a sealed value too short")
        }
        let nonce = Array(sealed[Self.magic.count..<header])
        let body = Array(sealed[header..<(sealed.count - Self.tagLength)])
        var tag = Array(sealed.suffix(Self.tagLength))
        var output = [UInt8](repeating: 0, count: body.count + Self.tagLength)
        let written = try crypt(
            encrypt: false, input: body, nonce: nonce, associated: Array(storeKey.text.utf8),
            output: &output, tag: &tag)
        return Array(output.prefix(written))
    }

    /// One EVP AES-256-GCM pass (EVP_EncryptInit_ex(3), "AEAD Interface"); decryption fails
    /// when the tag does not match (another key, or a value changed or moved).
    private func crypt(
        encrypt: Bool, input: [UInt8], nonce: [UInt8], associated: [UInt8], output: inout [UInt8],
        tag: inout [UInt8]
    ) throws(StoreError) -> Int {
        guard let context = EVP_CIPHER_CTX_new() else { throw StoreError.io("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let what = encrypt ? "encrypt" : "decrypt"
        var length: Int32 = 0
        var total = 0
        let worked: Bool = key.withUnsafeBufferPointer { key in
            nonce.withUnsafeBufferPointer { nonce in
                if encrypt {
                    guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                        EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
                        EVP_EncryptInit_ex(context, nil, nil, key.baseAddress, nonce.baseAddress) == 1,
                        EVP_EncryptUpdate(context, nil, &length, associated, Int32(associated.count)) == 1,
                        EVP_EncryptUpdate(context, &output, &length, input, Int32(input.count)) == 1
                    else { return false }
                    total = Int(length)
                    let finished = output.withUnsafeMutableBufferPointer { buffer in
                        guard let base = buffer.baseAddress else { return Int32(0) }
                        return EVP_EncryptFinal_ex(context, base + total, &length)
                    }
                    guard finished == 1 else { return false }
                    total += Int(length)
                    return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tag.count), &tag) == 1
                }
                guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                    EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
                    EVP_DecryptInit_ex(context, nil, nil, key.baseAddress, nonce.baseAddress) == 1,
                    EVP_DecryptUpdate(context, nil, &length, associated, Int32(associated.count)) == 1,
                    EVP_DecryptUpdate(context, &output, &length, input, Int32(input.count)) == 1
                else { return false }
                total = Int(length)
                guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &tag) == 1 else {
                    return false
                }
                let finished = output.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return Int32(0) }
                    return EVP_DecryptFinal_ex(context, base + total, &length)
                }
                guard finished == 1 else { return false }
                total += Int(length)
                return true
            }
        }
        ERR_clear_error()
        guard worked else {
            throw encrypt
                ? StoreError.io("cannot \(what) a private key (AES-256-GCM)")
                : StoreError.refused("cannot \(what) a private key: another --store-key-file, or the value was changed")
        }
        return total
    }
}
