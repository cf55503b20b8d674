#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: which call, the errno it set (captured at once, before anything
/// else can overwrite it), and the path it was given when it was given one.
public struct SystemError: Error, Equatable, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32
    public let path: String?

    public init(_ call: String, errno: Int32, path: String? = nil) {
        self.call = call
        self.errno = errno
        self.path = path
    }

    /// What strerror(3) says of the errno, for a message that names the call in its own words.
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String {
        let subject = path.map { "\(call) \($0)" } ?? call
        return "\(subject): \(reason)"
    }

    /// `open: Too many open files (EMFILE)`: the call, what strerror(3) says and the errno's
    /// symbol, so an operator can search for either.
    public var callAndErrno: String {
        "\(call): \(reason)" + (Self.symbol(errno).map { " (\($0))" } ?? "")
    }

    /// The symbolic name of the errnos a load meets (errno(3)); nil for others.
    public static func symbol(_ code: Int32) -> String? {
        let names: [Int32: String] = [
            EMFILE: "EMFILE", ENFILE: "ENFILE", EACCES: "EACCES", EIO: "EIO", ENOENT: "ENOENT", ENOMEM: "ENOMEM",
            EPERM: "EPERM", ELOOP: "ELOOP", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EAGAIN: "EAGAIN", EBADF: "EBADF",
            ESTALE: "ESTALE", ENAMETOOLONG: "ENAMETOOLONG", EINTR: "EINTR", ENODEV: "ENODEV", ENXIO: "ENXIO",
        ]
        return names[code]
    }
}
