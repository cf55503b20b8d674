/// The challenge types the server can answer itself (RFC 8555 §8.3, RFC 8737).
public enum ChallengeType: String, Sendable, CaseIterable {
    case http01 = "http-01"
    case tlsALPN01 = "tls-alpn-01"

    /// A `--acme-challenges` list: known types, no repeats, in preference order.
    public static func parseList(_ text: String) -> [ChallengeType]? {
        var list: [ChallengeType] = []
        for part in text.split(separator: ",") {
            guard let type = ChallengeType(rawValue: part.trimmingCharacters(in: .whitespaces).lowercased()),
                !list.contains(type)
            else { return nil }
            list.append(type)
        }
        return list.isEmpty ? nil : list
    }
}
