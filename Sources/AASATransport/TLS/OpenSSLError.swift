import COpenSSL

/// The OpenSSL error queue as one message (the queue is per thread; ERR_clear_error runs
/// before every TLS call, so what is here belongs to the call that just failed).
public struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let reasons: [String]
    /// The failure came from the system's state (descriptors or memory short, an I/O error,
    /// a file being written), not from what a file says: the same read may work later.
    package let passing: Bool

    package init(operation: String, reasons: [String], passing: Bool = false) {
        self.operation = operation
        self.reasons = reasons
        self.passing = passing
    }

    public var description: String {
        reasons.isEmpty ? operation : "\(operation): \(reasons.joined(separator: "; "))"
    }

    package static func drain(_ operation: String, passing: Bool = false) -> OpenSSLError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return OpenSSLError(operation: operation, reasons: reasons, passing: passing)
    }
}
