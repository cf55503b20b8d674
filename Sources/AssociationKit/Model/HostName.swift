/// Host names as the server and the matcher compare them.
public enum HostName {
    /// Lower-cased, without a port and without a trailing dot (RFC 3986 §3.2.2: host names
    /// are case-insensitive; `example.com.` names the same host). Returns nil for a value
    /// that cannot be a host name: empty, or holding characters a DNS name or an IP literal
    /// never has (`/`, `\`, spaces, control characters, `..`).
    /// The entry for a normalized host: its exact name, else the longest wildcard, found by
    /// walking the host's parent domains (`wildcards` is keyed by the part after `*.`). A
    /// wildcard never answers for its own apex: `*.example.com` is not `example.com`.
    public static func lookup<Entry>(_ host: String, exact: [String: Entry], wildcards: [String: Entry]) -> Entry? {
        if let entry = exact[host] { return entry }
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if let entry = wildcards[String(rest)] { return entry }
        }
        return nil
    }

    public static func normalize(_ raw: String) -> String? {
        var host = Substring(raw)
        if host.hasPrefix("[") {
            // IPv6 literal: keep the brackets' content, drop any port after "]".
            guard let close = host.firstIndex(of: "]") else { return nil }
            host = host[host.index(after: host.startIndex)..<close]
            return host.isEmpty ? nil : host.lowercased()
        }
        if let colon = host.firstIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else { return nil }
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty, !host.hasPrefix("."), !host.contains("..") else { return nil }
        let allowed = host.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "." || scalar == "_" || scalar == "*" || scalar.value > 0x7F
        }
        return allowed ? host.lowercased() : nil
    }
}
