#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux)
    // SOCK_STREAM: glibc declares it in sys/socket.h's own header, which Glibc's module map
    // does not make visible to every build (a release build failed without it).
    import CSystemShims
#endif

/// An address the system's resolver found: as the kernel stores it, with its length.
package struct ResolvedAddress: @unchecked Sendable {
    package let storage: sockaddr_storage
    package let length: socklen_t

    package var family: Int32 { Int32(storage.ss_family) }

    /// `body` with the address as a `sockaddr` pointer and its length, for connect(2).
    package func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var copy = storage
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

/// Names resolved by the system's resolver (getaddrinfo(3), which reads /etc/hosts and asks
/// the DNS servers of /etc/resolv.conf). Portable.
extension Posix {
    /// The IPv4 and IPv6 addresses of `host` for TCP, in the resolver's order, with `port`
    /// when given; or gai_strerror(3)'s text.
    package static func addresses(of host: String, port: Int? = nil) -> Swift.Result<[ResolvedAddress], ResolveFailure>
    {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port.map(String.init), &hints, &list)
        guard status == 0 else { return .failure(ResolveFailure(description: String(cString: gai_strerror(status)))) }
        defer { freeaddrinfo(list) }
        var found: [ResolvedAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                var storage = sockaddr_storage()
                let length = min(Int(current.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
                }
                let family = Int32(storage.ss_family)
                if family == AF_INET || family == AF_INET6 {
                    found.append(ResolvedAddress(storage: storage, length: socklen_t(length)))
                }
            }
            entry = current.pointee.ai_next
        }
        return .success(found)
    }

    /// Why the resolver found nothing: gai_strerror(3)'s text.
    package struct ResolveFailure: Error, CustomStringConvertible {
        package let description: String
    }
}
