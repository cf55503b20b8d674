@preconcurrency import Glibc

/// How the ACME pre-flight finds a name's addresses (docs/acme.md, "Pre-flight"): the
/// system's resolver (getaddrinfo(3), as the rest of the machine sees the name) or one DNS
/// server asked directly (`DNSClient`). Blocking: run on a worker thread, never a loop.
public enum NameResolver: Sendable {
    case system
    case server(DNSClient)

    /// The name's IPv4 and IPv6 addresses (`port` set on each), or why there are none;
    /// `queries` counts the DNS messages sent (getaddrinfo's own are not seen: 0).
    public func resolve(_ name: String, port: Int, queries: inout Int) -> Result<[SocketAddress], DNSClient.Failure> {
        switch self {
        case .system: return Self.system(name, port: port)
        case .server(let client):
            var found: [SocketAddress] = []
            var problems: [String] = []
            for type in [DNSMessage.RecordType.a, .aaaa] {
                switch client.addresses(of: name, type: type, queries: &queries) {
                case .success(let addresses):
                    found += addresses.compactMap { SocketAddress(addressBytes: $0, port: port) }
                case .failure(let failure):
                    // No such name needs no second query.
                    if failure.noSuchName { return .failure(failure) }
                    problems.append(failure.description)
                }
            }
            if found.isEmpty {
                return .failure(
                    DNSClient.Failure(
                        description: problems.first ?? "\(name) has no A or AAAA record at \(client.server)"))
            }
            return .success(found)
        }
    }

    private static func system(_ name: String, port: Int) -> Result<[SocketAddress], DNSClient.Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0 else {
            let text = String(cString: gai_strerror(status))
            return .failure(DNSClient.Failure(description: "the system's resolver: \(text)"))
        }
        defer { freeaddrinfo(list) }
        var found: [SocketAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(
                        from: UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen)))
                }
                let family = Int32(storage.ss_family)
                if family == AF_INET || family == AF_INET6 {
                    let socket = SocketAddress(storage).with(port: port)
                    if !found.contains(socket) { found.append(socket) }
                }
            }
            entry = current.pointee.ai_next
        }
        return found.isEmpty
            ? .failure(DNSClient.Failure(description: "the system's resolver found no address for \(name)"))
            : .success(found)
    }
}
