/// Host names as the server and the matcher compare them.
public enum HostName {
    /// The entry for a normalized host: its exact name, else the longest wildcard, found by
    /// walking the host's parent domains (`wildcards` is keyed by the part after `*.`). A
    /// wildcard never answers for its own apex: `*.example.com` is not `example.com`.
    @inlinable
    public static func lookup<Entry>(
        _ host: UnsafeBufferPointer<UInt8>, exact: [HostKey: Entry], wildcards: [HostKey: Entry]
    ) -> Entry? {
        if let entry = exact[HostKey(borrowing: host)] { return entry }
        var index = 0
        while index < host.count {
            if host[index] == UInt8(ascii: ".") {
                let parent = UnsafeBufferPointer(rebasing: host[(index + 1)...])
                if let entry = wildcards[HostKey(borrowing: parent)] { return entry }
            }
            index += 1
        }
        return nil
    }

    /// The one host normalizer: `raw` as a site is keyed, the server's Host header and
    /// `match --domain` alike. Lower-cased, without a port and without a trailing dot
    /// (RFC 3986 §3.2.2: host names are case-insensitive; `example.com.` names the same host);
    /// nil for a value that cannot be a host name: empty, or holding characters a DNS name or
    /// an IP literal never has (`/`, `\`, `@`, spaces, control characters, `..`). Split by
    /// `AuthoritySplit`; an IPv6 literal keeps its brackets' content (no site folder is named
    /// after one, so it finds none).
    public static func normalize(_ raw: String) -> String? {
        var raw = raw
        return raw.withUTF8 { bytes in
            guard let authority = AuthoritySplit(bytes, 0..<bytes.count) else { return nil }
            guard authority.isIPLiteral else { return key(bytes, 0..<bytes.count) }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[authority.host]), as: UTF8.self).lowercased()
        }
    }

    /// The site key of a sites-folder entry named `name`: the host it serves, normalized as a
    /// Host header is (`key`: lower case, no trailing dot), or `*.` and one for a wildcard;
    /// nil for a name that is neither, or that has a port (a folder never names one), so a
    /// folder no request can reach is reported rather than never matched.
    public static func siteKey(folder name: String) -> String? {
        var name = name
        return name.withUTF8 { bytes in
            guard !bytes.contains(UInt8(ascii: ":")) else { return nil }
            let wildcard = bytes.count > 2 && bytes[0] == UInt8(ascii: "*") && bytes[1] == UInt8(ascii: ".")
            guard let key = key(bytes, (wildcard ? 2 : 0)..<bytes.count) else { return nil }
            return wildcard ? "*." + key : key
        }
    }

    /// The site key of the host in `buffer[range]` (a Host header, an authority): ASCII
    /// letters lower-cased, digits, `-`, `_` and `.`, without a `:port` and without a trailing
    /// dot, at most 253 bytes (RFC 1035 §2.3.4). Nil for anything else (empty labels, an IPv6
    /// literal, other bytes), so no Host value can name a path or a folder it should not.
    public static func key(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        withKey(buffer, range) { String(decoding: $0, as: UTF8.self) } ?? nil
    }

    /// `key`, handed to `body` as bytes on the stack rather than a String: the request path
    /// looks a host up by these without allocating (a String over 15 bytes would). Nil when
    /// `buffer[range]` is not a host name.
    @inlinable
    public static func withKey<Result>(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        // The port goes (RFC 3986 §3.2.3); no site folder is named after an IP literal.
        guard let authority = AuthoritySplit(buffer, range), !authority.isIPLiteral else { return nil }
        var start = authority.host.lowerBound
        var end = authority.host.upperBound
        if end > start, buffer[end - 1] == UInt8(ascii: ".") { end -= 1 }
        guard end > start, end - start <= 253 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { bytes -> Result? in
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
            return body(UnsafeBufferPointer(rebasing: bytes[..<count]))
        }
    }

    @usableFromInline
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
