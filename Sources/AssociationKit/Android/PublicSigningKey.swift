/// A signing key whose private half anyone can download: an app signed with it can be built by
/// anyone, so a statement naming its fingerprint lets any app claim the site's links. The
/// table, with where each key is published, is docs/association-files.md, "Publicly known
/// signing keys".
struct PublicSigningKey: Sendable {
    var name: String
    var sha256: String
    var sha1: String

    static let all: [PublicSigningKey] = [
        PublicSigningKey(
            name:
                "the debug.keystore that React Native's app template ships (template/android/app/debug.keystore; the "
                + "template signs release builds with it too)",
            sha256: "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C",
            sha1: "5E:8F:16:06:2E:A3:CD:2C:4A:0D:54:78:76:BA:A6:F3:8C:AB:F6:25")
    ]

    /// The key whose SHA-256 (or SHA-1) fingerprint this is, in either case.
    static func matching(_ fingerprint: String) -> PublicSigningKey? {
        let upper = fingerprint.uppercased()
        return all.first { $0.sha256 == upper || $0.sha1 == upper }
    }
}
