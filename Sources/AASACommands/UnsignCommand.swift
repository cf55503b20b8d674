import AASAFileCommands
import AASASignedData
import ArgumentParser
import AssociationKit
import Foundation

/// `aasa-server unsign FILE`: a CMS-signed apple-app-site-association's JSON content on
/// stdout, the way off signing (iOS 9 and later read the plain file; docs/association-files.md,
/// "Signed files"). The signature is not verified: the content is what the file says.
struct UnsignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsign",
        abstract: "Write a signed (CMS) association file's JSON content to stdout.",
        discussion: """
            FILE is CMS SignedData, DER or PEM, as iOS 8 required; its content is written \
            byte for byte, to serve as the plain file. Exit 0 written, 1 FILE is not signed or \
            carries no content, 2 usage error or unreadable input.
            """)

    @Argument(help: "The signed file.")
    var file: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            StandardStreams.writeError("\(file): error: cannot read the file\n")
            throw CommandFailure.unreadable
        }
        let bytes = [UInt8](data)
        guard let encoding = SignedEnvelope.encoding(of: bytes) else {
            StandardStreams.writeError("\(file): error: not CMS-signed (DER or PEM SignedData); it is the plain file\n")
            throw CommandFailure.invalid
        }
        guard let content = SignedContent.cmsContent(bytes) else {
            StandardStreams.writeError(
                "\(file): error: CMS (\(encoding.rawValue)) without content to read: damaged, not SignedData, or a "
                    + "detached signature\n")
            throw CommandFailure.invalid
        }
        StandardStreams.write(bytes: content)
        if AssociationFileValidator.validate(content).file == nil {
            StandardStreams.writeError(
                "\(file): warning: the content is not an association file Apple can read; run validate on it\n")
        }
    }
}
