@preconcurrency import Glibc

/// A failed system call: which call and the errno it set, captured at once.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String {
        "\(call): \(String(cString: strerror(errno)))"
    }
}
