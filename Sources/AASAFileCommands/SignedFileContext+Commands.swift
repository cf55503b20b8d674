import AssociationKit
import Foundation

extension SignedFileContext {
    /// How a command opens signed files: the installed reader (FileCommandServices),
    /// verifying against the system's roots or `cacert`, at the current time.
    package static func command(domain: String? = nil, cacert: String? = nil) -> SignedFileContext {
        SignedFileContext(
            reader: FileCommandServices.signedFiles(cacert), domain: domain?.lowercased(),
            now: Int(Date().timeIntervalSince1970))
    }
}
