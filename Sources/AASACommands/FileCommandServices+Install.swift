import AASAFileCommands
import AASASignedData

extension FileCommandServices {
    /// The full executable's services: OpenSSL's CMS reader and the HTTPS client.
    static func install() {
        signedFiles = { cacert in CMSReader.reader(trusting: cacert.map(TrustAnchors.file) ?? .system) }
        liveFiles = .https
    }
}
