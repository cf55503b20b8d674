import AssociationKit
import Foundation

/// One association file read from disk and validated: what `validate` prints and what the
/// server refuses to start (or reload) with.
public struct FileCheck: Sendable {
    public enum Kind: String, Sendable {
        case apple = "apple-app-site-association"
        case android = "assetlinks.json"
    }

    /// Files past this are not read at all: twice Apple's limit, so a file a little too large
    /// still gets every diagnostic, while a huge one costs no memory and no parsing.
    static let readLimit = 2 * AssociationFileValidator.maximumSize

    public let path: String
    public let kind: Kind
    public let byteCount: Int
    public let diagnostics: [Diagnostic]
    /// What past `OmittedDiagnostics.limit` was counted, not kept.
    public let omitted: OmittedDiagnostics
    /// Set when the file could not be read; the file then has no diagnostics.
    public let readError: String?
    /// The bytes, when they were read and parsed.
    public let bytes: [UInt8]?
    /// The decoded Apple file, kept so nothing parses it a second time at load.
    public let appleFile: AssociationFile?
    /// Seconds since the epoch.
    public let modified: Int

    public var isValid: Bool { readError == nil && bytes != nil && !diagnostics.hasErrors && omitted.errors == 0 }

    public static func kind(ofFileNamed name: String) -> Kind {
        name == Kind.android.rawValue ? .android : .apple
    }

    /// The kind of a file given by path: by its name when it is one of the two (as the server
    /// decides, so an `apple-app-site-association` holding `[]` is a wrong Apple file, not a
    /// good Android one), else by its content (Android's is a JSON array, Apple's an object).
    public static func kind(ofFileAt path: String, bytes: [UInt8]? = nil) -> Kind {
        if let kind = Kind(rawValue: (path as NSString).lastPathComponent) { return kind }
        let content = bytes ?? FileHandle(forReadingAtPath: path).map { handle in
            defer { try? handle.close() }
            return [UInt8]((try? handle.read(upToCount: 256)) ?? Data())
        } ?? []
        return content.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } == UInt8(ascii: "[") ? .android : .apple
    }

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        // Clamped to what an HTTP date can say (years 1970 to 9999): a file touched to an
        // absurd time must not trap the conversion nor make Last-Modified malformed.
        let seconds = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        modified = seconds.isFinite ? Int(min(max(seconds, 0), 253_402_300_799)) : 0
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            (byteCount, diagnostics, omitted, bytes, appleFile) = (0, [], OmittedDiagnostics(), nil, nil)
            readError = attributes == nil ? "cannot read the file (missing or permission denied)" : "not a regular file"
            return
        }
        // The size is checked again on the bytes read: the file may grow after the stat.
        let data = size > Self.readLimit ? nil : FileHandle(forReadingAtPath: path).flatMap { handle in
            defer { try? handle.close() }
            return try? handle.read(upToCount: Self.readLimit + 1) ?? Data()
        }
        if size > Self.readLimit || (data?.count ?? 0) > Self.readLimit {
            (byteCount, omitted, bytes, readError, appleFile) = (max(size, data?.count ?? 0), OmittedDiagnostics(), nil, nil, nil)
            diagnostics = [
                Diagnostic(
                    .fileTooLarge, "the file is \(size) bytes; Apple ignores association files over 128 KiB (131072 bytes)",
                    at: .start, pointer: "")
            ]
            return
        }
        guard let data else {
            (byteCount, diagnostics, omitted, bytes, appleFile) = (0, [], OmittedDiagnostics(), nil, nil)
            readError = "cannot read the file (permission denied?)"
            return
        }
        let content = [UInt8](data)
        byteCount = content.count
        readError = nil
        switch kind {
        case .apple:
            let report = AssociationFileValidator.validate(content)
            (diagnostics, omitted) = (report.diagnostics, report.omitted)
            bytes = report.file == nil ? nil : content
            appleFile = report.file
        case .android:
            let report = AssetLinksValidator.validate(content)
            (diagnostics, omitted) = (report.diagnostics, report.omitted)
            bytes = report.file == nil ? nil : content
            appleFile = nil
        }
    }
}
