import AASASystem
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
        let resolved: [ResolvedAddress]
        switch Posix.addresses(of: name) {
        case .success(let addresses): resolved = addresses
        case .failure(let failure):
            return .failure(DNSClient.Failure(description: "the system's resolver: \(failure)"))
        }
        var found: [SocketAddress] = []
        for address in resolved {
            let socket = SocketAddress(address.storage).with(port: port)
            if !found.contains(socket) { found.append(socket) }
        }
        return found.isEmpty
            ? .failure(DNSClient.Failure(description: "the system's resolver found no address for \(name)"))
            : .success(found)
    }
}
