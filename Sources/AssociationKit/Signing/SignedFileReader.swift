/// How a signed file is opened: injected by the layer that links a CMS implementation
/// (`AASASignedData`), so this library stays free of OpenSSL and a build without one still
/// recognizes a signed file (`SignedEnvelope.encoding(of:)`) and says it cannot read it.
public struct SignedFileReader: Sendable {
    /// The envelope of CMS SignedData bytes, nil when they cannot be read as such.
    public let open: @Sendable ([UInt8]) -> SignedEnvelope?

    public init(open: @escaping @Sendable ([UInt8]) -> SignedEnvelope?) {
        self.open = open
    }

    /// No CMS implementation: signed files are recognized, never read.
    public static let unavailable = SignedFileReader { _ in nil }
}
