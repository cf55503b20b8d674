import AASALoop
import AASASystem
@preconcurrency import Glibc

/// The bearer token of the admin listener, read once at start from `adminTokenFile`
/// (docs/security.md, "The admin listener"). The file holds the token and at most a trailing line
/// break. Others may not read it: the token then is no secret, so the server refuses to
/// start. A group the server is not in may read it with a warning (the operator chose that
/// group); a group it is in is how Kubernetes gives a non-root container its Secret
/// (`fsGroup`).
public struct AdminToken: Sendable {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Large enough for any generated token, small enough to read at once.
    static let maximumBytes = 4096
    /// The shortest token a listener reachable from other hosts accepts: 16 bytes of
    /// `openssl rand -hex` carry 64 bits, beyond online guessing, where a loopback listener's
    /// token only separates local users (docs/security.md, "The admin listener").
    public static let minimumPublicBytes = 16

    public let bytes: [UInt8]
    /// Set when a group the server is not in can read the file.
    public let warning: String?

    init(bytes: [UInt8]) {
        self.bytes = bytes
        warning = nil
    }

    /// Reads the token from `path`; `minimumBytes` is `minimumPublicBytes` for a public listener.
    public init(file path: String, minimumBytes: Int = 1) throws(Problem) {
        let fd: Int32
        do throws(SystemError) {
            fd = try Posix.open(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw Problem(description: "cannot read the admin token file \(path): \(error.reason)")
        }
        defer { Posix.close(fd) }
        let info: stat
        do throws(SystemError) {
            info = try Posix.status(fd)
        } catch {
            throw Problem(description: "cannot read the admin token file \(path): \(error.reason)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Problem(description: "the admin token file \(path) is not a regular file")
        }
        let mode = String(info.st_mode & 0o777, radix: 8)
        if info.st_mode & (S_IROTH | S_IWOTH) != 0 {
            throw Problem(
                description: "the admin token file \(path) is readable or writable by others (mode \(mode)); "
                    + "chmod o-rw it")
        }
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try Posix.readAll(fd, limit: Self.maximumBytes + 1)
        } catch {
            throw Problem(description: "cannot read the admin token file \(path): \(error.reason)")
        }
        let filled = bytes.count
        guard filled <= Self.maximumBytes else {
            throw Problem(description: "the admin token file \(path) is over \(Self.maximumBytes) bytes")
        }
        self.bytes = try Self.token(bytes, path: path)
        guard self.bytes.count >= minimumBytes else {
            throw Problem(
                description: "the admin token in \(path) has \(self.bytes.count) bytes; a public admin listener "
                    + "needs at least \(minimumBytes) (for example from openssl rand -hex 32)")
        }
        let groupReads = info.st_mode & S_IRGRP != 0
        warning =
            groupReads && !Posix.isOwnGroup(info.st_gid)
            ? "the admin token file \(path) is readable by group \(info.st_gid), which this server is not in "
                + "(mode \(mode))" : nil
    }

    /// The token without one trailing line break; it must be a `token68` (RFC 9110 §11.2),
    /// what `Authorization: Bearer` carries (RFC 6750 §2.1).
    static func token(_ contents: [UInt8], path: String) throws(Problem) -> [UInt8] {
        var token = contents[...]
        if token.last == UInt8(ascii: "\n") { token = token.dropLast() }
        if token.last == UInt8(ascii: "\r") { token = token.dropLast() }
        guard !token.isEmpty else { throw Problem(description: "the admin token file \(path) is empty") }
        let body = token.prefix { $0 != UInt8(ascii: "=") }
        let isToken68 =
            !body.isEmpty && body.allSatisfy(HTTPToken.isToken68Character)
            && token[body.endIndex...].allSatisfy { $0 == UInt8(ascii: "=") }
        guard isToken68 else {
            throw Problem(
                description: "the admin token in \(path) must be one line of letters, digits and -._~+/ "
                    + "(for example from openssl rand -hex 32)")
        }
        return Array(token)
    }

    /// Whether `given` is the token, in time that depends only on the token's length (a
    /// comparison that stopped at the first differing byte would tell an attacker, byte by
    /// byte, how much of a guess is right).
    func matches<Bytes: Collection<UInt8>>(_ given: Bytes) -> Bool {
        var difference: UInt8 = given.count == bytes.count ? 0 : 1
        var other = given.makeIterator()
        for byte in bytes { difference |= byte ^ (other.next() ?? 0) }
        return difference == 0
    }
}
