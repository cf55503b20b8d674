import Foundation
@preconcurrency import Glibc

/// TCP sockets on 127.0.0.1 for the tests' own clients and listeners: one place for the
/// sockaddr dance.
public enum LoopbackSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A socket connected to `port`; `receiveBuffer` sets SO_RCVBUF before connecting; `from`
    /// is another loopback address to send from (all of 127.0.0.0/8 is local).
    public static func connect(port: Int, receiveBuffer: Int32? = nil, from source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = loopback(port: 0)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard bound else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw Failure(description: "bind to \(source): \(reason)")
            }
        }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
        return fd
    }

    /// A listening socket on a free port, with its port.
    public static func listen(backlog: Int32 = 128) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && Glibc.listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot make a listening socket: \(reason)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
