import AssociationKit

/// What `validate`, `match` and `diff` need from layers this target does not link: reading
/// signed (CMS) files, and fetching a live file for `diff --against-live`. The full
/// executable installs OpenSSL's reader and the HTTPS client before parsing the command line;
/// a portable build (docs/ARCHITECTURE.md, "Portable commands") keeps these defaults: a
/// signed file is reported as one the build cannot read, and `--against-live` is refused.
package enum FileCommandServices {
    /// A reader verifying signers against the certificates of a PEM file, or the system's.
    package typealias SignedFiles = @Sendable (_ cacert: String?) -> SignedFileReader

    /// Set once, by `main` before any command runs, and only read afterwards.
    nonisolated(unsafe) package static var signedFiles: SignedFiles = { _ in .unavailable }
    nonisolated(unsafe) package static var liveFiles: LiveFileSource?
}
