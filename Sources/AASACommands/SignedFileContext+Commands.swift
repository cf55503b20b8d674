import AASASignedData
import AssociationKit
import Foundation

extension SignedFileContext {
    /// How a command opens signed files: OpenSSL's CMS reader, verifying against the
    /// system's roots or `cacert`, at the current time.
    static func command(domain: String? = nil, cacert: String? = nil) -> SignedFileContext {
        SignedFileContext(
            reader: CMSReader.reader(trusting: cacert.map(TrustAnchors.file) ?? .system), domain: domain?.lowercased(),
            now: Int(Date().timeIntervalSince1970))
    }
}
