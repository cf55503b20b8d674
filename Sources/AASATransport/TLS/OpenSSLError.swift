import COpenSSL

/// The OpenSSL error queue as one message (the queue is per thread; ERR_clear_error runs
/// before every TLS call, so what is here belongs to the call that just failed).
public struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let reasons: [String]

    package init(operation: String, reasons: [String]) {
        self.operation = operation
        self.reasons = reasons
    }

    public var description: String {
        reasons.isEmpty ? operation : "\(operation): \(reasons.joined(separator: "; "))"
    }

    package static func drain(_ operation: String) -> OpenSSLError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return OpenSSLError(operation: operation, reasons: reasons)
    }
}
