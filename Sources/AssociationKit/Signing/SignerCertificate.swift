/// What a signed file's signer certificate says that the checks need: who, for which
/// names, and when it is valid.
public struct SignerCertificate: Sendable, Hashable {
    /// The subject as one line (its common name when it has one).
    public var subject: String
    /// subjectAltName DNS entries, lower-cased; the subject CN only when there are none.
    public var names: [String]
    /// Seconds since the epoch.
    public var notBefore: Int
    public var notAfter: Int

    public init(subject: String, names: [String], notBefore: Int, notAfter: Int) {
        self.subject = subject
        self.names = names
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// Whether the certificate is good for `host` (lower-case): the exact name, or a wildcard
    /// for its parent domain, one label deep (RFC 6125 §6.4.3). A wildcard site (`*.a.com`)
    /// needs the wildcard itself.
    public func names(_ host: String) -> Bool {
        if names.contains(host) { return true }
        guard !host.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
        return names.contains("*" + host[dot...])
    }
}
