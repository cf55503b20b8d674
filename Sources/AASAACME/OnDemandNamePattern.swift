/// One `--acme-on-demand-names` pattern (docs/acme.md, "On-demand names"): DNS labels of
/// letters, digits and hyphens separated by dots, where `*` stands for any run of characters,
/// none included, within one label (`pr-*.staging.example.com` matches
/// `pr-7.staging.example.com`, not `a.pr-7.staging.example.com` nor `pr.staging.example.com`).
/// A name matches when it has as many labels and each matches its pattern label; letters
/// match without regard to case.
public struct OnDemandNamePattern: Sendable, Equatable, CustomStringConvertible {
    /// Per label, the literal parts between its stars (`pr-*` is `["pr-", ""]`).
    private let labels: [[[UInt8]]]
    public let description: String

    /// nil for anything but the grammar above: an empty pattern or label, other characters,
    /// more than 253 bytes.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        let bytes = Array(lowered.utf8)
        guard !bytes.isEmpty, bytes.count <= 253,
            bytes.allSatisfy({ byte in
                (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E
                    || byte == 0x2A
            })
        else { return nil }
        let labels = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 }) else { return nil }
        self.labels = labels.map { label in
            label.split(separator: 0x2A, omittingEmptySubsequences: false).map { Array($0) }
        }
        description = lowered
    }

    /// Whether `name` (a host name as the handshake gave it) matches.
    public func matches(_ name: String) -> Bool {
        let bytes = Array(name.utf8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        let parts = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        guard parts.count == labels.count else { return false }
        return zip(parts, labels).allSatisfy { Self.label($0.0, matches: $0.1) }
    }

    /// A label against the literal parts of a label pattern: the first a prefix, the last a
    /// suffix, the ones between found in order, left to right (the earliest place of each
    /// leaves the most room for the rest, so no backtracking is needed).
    static func label(_ label: ArraySlice<UInt8>, matches parts: [[UInt8]]) -> Bool {
        guard let first = parts.first, let last = parts.last else { return false }
        if parts.count == 1 { return label.elementsEqual(first) }
        guard label.count >= first.count + last.count, label.starts(with: first),
            label.reversed().starts(with: last.reversed())
        else { return false }
        var rest = label.dropFirst(first.count).dropLast(last.count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let start = rest.firstRange(of: part) else { return false }
            rest = rest[start.upperBound...]
        }
        return true
    }
}
