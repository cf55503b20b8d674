/// What judging a signed file needs beyond its bytes: the reader, the site it is served for
/// and the time.
public struct SignedFileContext: Sendable {
    public var reader: SignedFileReader
    /// The host the file is served for (lower-case, `*.` for a wildcard site); nil skips the
    /// name check (a file named on the command line, outside a site folder).
    public var domain: String?
    /// Seconds since the epoch, for the signer certificate's validity.
    public var now: Int

    public init(reader: SignedFileReader, domain: String? = nil, now: Int) {
        self.reader = reader
        self.domain = domain
        self.now = now
    }
}

extension SignedFileReader {
    /// The JSON a file means: the content of a readable signed file, else the bytes as they
    /// are (for readers that compare or match, and judge nothing).
    public func json(_ bytes: [UInt8]) -> [UInt8] {
        guard SignedEnvelope.encoding(of: bytes) != nil, let content = open(bytes)?.content else { return bytes }
        return content
    }
}
