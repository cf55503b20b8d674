import AASASystem
@preconcurrency import Glibc

/// Listening sockets passed by systemd (sd_listen_fds(3)): `LISTEN_FDS` descriptors from 3 on,
/// for the process `LISTEN_PID` names, with their names in `LISTEN_FDNAMES`. A socket unit
/// keeps them open while the service restarts, so connections wait in the kernel's queue for
/// the next process instead of being refused (systemd.socket(5)).
public enum SocketActivation {
    /// SD_LISTEN_FDS_START.
    static let firstDescriptor: Int32 = 3
    static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// The sockets passed to this process, each checked to be a listening TCP socket and made
    /// close-on-exec; none when `LISTEN_PID` names another process (variables a parent left
    /// behind) or the variables are unset. The variables are removed either way, so that no
    /// child sees them (sd_listen_fds(3), `unset_environment`).
    public static func take() throws(SocketActivationError) -> [InheritedSocket] {
        let values = variables.map { name in getenv(name).map { String(cString: $0) } }
        for name in variables { unsetenv(name) }
        guard let pid = values[0], let count = values[1] else { return [] }
        guard let owner = number(pid) else { throw .invalidVariable(name: "LISTEN_PID", value: pid) }
        guard owner == Int(Posix.processID()) else { return [] }
        // Far more than any socket unit passes; the bound keeps the descriptor arithmetic safe.
        guard let total = number(count), total <= 4096 else {
            throw .invalidVariable(name: "LISTEN_FDS", value: count)
        }
        var names = [String](repeating: "unknown", count: total)
        if let given = values[2] {
            let parts = given.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == total else { throw .namesMismatch(names: parts.count, descriptors: total) }
            names = parts
        }
        var sockets: [InheritedSocket] = []
        for (offset, name) in names.enumerated() {
            let fd = firstDescriptor + Int32(offset)
            // Checked before any wrapper: EBADF there would stop the process as a bug, and here
            // it is the caller's mistake.
            guard Posix.isOpen(fd) else { throw .notOpen(fd: fd) }
            let socket: InheritedSocket?
            do {
                socket = try inspect(fd, name: name)
            } catch {
                throw .failed(fd: fd, cause: error)
            }
            guard let socket else { throw .notListeningTCP(fd: fd, name: name) }
            sockets.append(socket)
        }
        return sockets
    }

    /// The descriptor made close-on-exec, and its address if it is a listening IPv4 or IPv6
    /// TCP socket (SO_DOMAIN, SO_TYPE, SO_PROTOCOL, SO_ACCEPTCONN: socket(7)); ENOTSOCK is nil.
    private static func inspect(_ fd: Int32, name: String) throws(SystemError) -> InheritedSocket? {
        try Posix.setCloseOnExec(fd)
        let domain: Int32
        do {
            domain = try Posix.option(fd, level: SOL_SOCKET, name: SO_DOMAIN)
            guard domain == AF_INET || domain == AF_INET6,
                try Posix.option(fd, level: SOL_SOCKET, name: SO_TYPE) == Int32(SOCK_STREAM.rawValue),
                try Posix.option(fd, level: SOL_SOCKET, name: SO_PROTOCOL) == Int32(IPPROTO_TCP),
                try Posix.option(fd, level: SOL_SOCKET, name: SO_ACCEPTCONN) == 1
            else { return nil }
        } catch  where error.errno == ENOTSOCK {
            return nil
        }
        // systemd sets IPV6_V6ONLY only with BindIPv6Only=ipv6-only (systemd.socket(5)).
        let v6Only =
            domain == AF_INET6 ? try Posix.option(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY) != 0 : true
        return InheritedSocket(fd: fd, name: name, address: try Posix.localAddress(fd), v6Only: v6Only)
    }

    /// A decimal count: digits only, as sd_listen_fds(3) reads them.
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(text)
    }
}
