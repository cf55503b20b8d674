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

    /// The one host normalizer: `raw` as a site is keyed, the server's Host header and
    /// `match --domain` alike. An IPv6 literal keeps its brackets' content (no site folder is
    /// named after one, so it finds none).
    public static func normalize(_ raw: String) -> String? {
        var raw = raw
        return raw.withUTF8 { bytes in
            bytes.first == UInt8(ascii: "[") ? ipv6Literal(bytes) : key(bytes, 0..<bytes.count)
        }
    }

    /// The site key of the host in `buffer[range]` (a Host header, an authority): ASCII
    /// letters lower-cased, digits, `-`, `_` and `.`, without a `:port` and without a trailing
    /// dot, at most 253 bytes (RFC 1035 §2.3.4). Nil for anything else (empty labels, an IPv6
    /// literal, other bytes), so no Host value can name a path or a folder it should not.
    public static func key(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var start = range.lowerBound
        var end = range.upperBound
        guard start < end, buffer[start] != UInt8(ascii: "[") else { return nil }
        var colon = start
        while colon < end, buffer[colon] != UInt8(ascii: ":") { colon += 1 }
        if colon < end {
            for index in (colon + 1)..<end where !isDigit(buffer[index]) { return nil }
            end = colon
        }
        if end > start, buffer[end - 1] == UInt8(ascii: ".") { end -= 1 }
        guard end > start, end - start <= 253 else { return nil }
        // Lower-cased on the stack; most host names then fit a String's inline storage, so
        // the lookup key costs no allocation.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { bytes -> String? in
            var previous = UInt8(ascii: ".")
            var count = 0
            while start < end {
                var byte = buffer[start]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                let allowed =
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || isDigit(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                // Empty labels ("..", a leading ".") are not host names.
                guard allowed, !(byte == UInt8(ascii: ".") && previous == UInt8(ascii: ".")) else { return nil }
                bytes[count] = byte
                count += 1
                previous = byte
                start += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<count]), as: UTF8.self)
        }
    }

    /// `[::1]` or `[::1]:8443`: the address between the brackets, lower-cased.
    private static func ipv6Literal(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return nil }
        let inside = UnsafeBufferPointer(rebasing: bytes[1..<close])
        let allowed = inside.allSatisfy {
            isDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || (0x41...0x46).contains($0 & ~0x20)
        }
        return allowed ? String(decoding: inside, as: UTF8.self).lowercased() : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
