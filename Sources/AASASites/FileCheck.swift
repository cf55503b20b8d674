import AASASystem
import AssociationKit
import Foundation

/// One association file read from disk and validated: what `validate` prints and what the
/// server refuses to start (or reload) with.
public struct FileCheck: Sendable {
    /// Files past this are not read at all: twice Apple's limit, so a file a little too large
    /// still gets every diagnostic, while a huge one costs no memory and no parsing.
    package static let readLimit = 2 * AssociationFileValidator.maximumSize

    public let path: String
    public let kind: Kind
    /// The file's name in its site folder: the kind's, or `well-known/NAME`.
    public let name: String
    /// The site folder the file belongs to, when it was read as part of a sites folder.
    public let site: String?
    public private(set) var byteCount: Int
    public internal(set) var diagnostics: [Diagnostic]
    /// What past `OmittedDiagnostics.limit` was counted, not kept.
    public internal(set) var omitted: OmittedDiagnostics
    /// Set when the file could not be read; the file then has no diagnostics.
    public private(set) var readError: String?
    /// The code of `readError`: unreadable, or a link that is not followed.
    public private(set) var readProblem: LoadProblem.Code
    /// The bytes, when they were read and parsed: what is served, signed or not.
    public private(set) var bytes: [UInt8]?
    /// A CMS-signed Apple file's JSON content, which the positions refer to (nil for plain
    /// JSON, whose content is `bytes`); docs/association-files.md, "Signed files".
    public private(set) var signedContent: [UInt8]?
    /// The decoded files, kept so nothing parses them a second time at load.
    public private(set) var appleFile: AssociationFile?
    public private(set) var androidFile: AssetLinks?
    public private(set) var fallbackFile: FallbackFile?
    /// `security.txt`'s `Expires`, seconds since the epoch.
    public private(set) var expires: Int?
    /// Seconds since the epoch.
    public let modified: Int
    /// The file's stat(2) when it was read: a reload re-reads it only when this changed.
    public let status: FileStatus?

    /// What the file's check found, as typed problems (notes left out): each diagnostic, the
    /// summary of those past the cap, or why the file could not be read.
    public var problems: [LoadProblem] {
        var problems = diagnostics.filter { $0.severity != .info }.map { LoadProblem($0, file: path, site: site) }
        if omitted.errors + omitted.warnings > 0 {
            let summary = LoadProblem(
                path, .diagnosticsOmitted, omitted.errors > 0 ? .error : .warning, DiagnosticLines.summary(of: omitted),
                site: site)
            problems.append(summary)
        }
        if let readError { problems.append(LoadProblem(path, readProblem, .error, readError, site: site)) }
        return problems
    }

    /// Read, and nothing to report but notes.
    public var isClean: Bool {
        readError == nil && omitted.errors + omitted.warnings == 0 && !diagnostics.contains { $0.severity != .info }
    }

    /// Read, parsed, and without errors.
    public private(set) var isValid: Bool

    /// The kind of a file given by path: by its name when it is one of the two (as the server
    /// decides, so an `apple-app-site-association` holding `[]` is a wrong Apple file, not a
    /// good Android one), else by its content (Android's is a JSON array, Apple's an object).
    public static func kind(ofFileAt path: String, bytes: [UInt8]? = nil) -> Kind {
        if let kind = Kind(rawValue: (path as NSString).lastPathComponent), kind != .wellKnownFolder { return kind }
        let parent = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
        if parent == WellKnownFile.folderName { return .wellKnownFolder }
        let content =
            bytes ?? FileHandle(forReadingAtPath: path).map { handle in
                defer { try? handle.close() }
                return [UInt8]((try? handle.read(upToCount: 256)) ?? Data())
            } ?? []
        return content.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } == UInt8(ascii: "[")
            ? .android : .apple
    }

    /// The decoded files of a site, for checking its expectations without parsing them again.
    public struct Siblings: Sendable {
        public var apple: AssociationFile?
        public var android: AssetLinks?

        public init(apple: AssociationFile? = nil, android: AssetLinks? = nil) {
            self.apple = apple
            self.android = android
        }
    }

    /// Reads and checks the file at `path`. With `confined` (a file of a site folder) its
    /// folder is opened and the file read beneath it (`SiteFolder`): a link leading outside
    /// is refused, as the server refuses it; without, links are followed (a file named on the
    /// command line). An `expectations.json` is checked against the site's files: `siblings`
    /// when the caller has them decoded, else the folder's, read here.
    /// A signed Apple file is opened with `signing.reader` and its signer checked against
    /// `signing.domain` (the site's name; nil when the file is not a site's).
    public init(
        path: String, kind: Kind, site: String? = nil, siblings: Siblings? = nil, confined: Bool = true,
        signing: SignedFileContext
    ) {
        let parent = (path as NSString).deletingLastPathComponent
        guard confined else {
            let folder =
                kind == .expectations && siblings == nil ? try? SiteFolder(path: parent.isEmpty ? "." : parent) : nil
            self.init(
                path: path, base: (path as NSString).lastPathComponent,
                read: FileStatus.read(path, limit: Self.readLimit + 1), kind: kind, site: site, siblings: siblings,
                folder: folder, signing: signing)
            return
        }
        do throws(SystemError) {
            let folder = try SiteFolder(path: parent.isEmpty ? "." : parent)
            self.init(
                named: (path as NSString).lastPathComponent, in: folder, shownAs: path, kind: kind, site: site,
                siblings: siblings, signing: signing)
        } catch {
            self.init(
                path: path, base: (path as NSString).lastPathComponent, read: .failed(error, nil), kind: kind,
                site: site, siblings: siblings, folder: nil, signing: signing)
        }
    }

    /// Reads and checks the file `name` of the opened site folder `folder`, shown as `path`.
    public init(
        named name: String, in folder: SiteFolder, shownAs path: String, kind: Kind, site: String? = nil,
        siblings: Siblings? = nil, signing: SignedFileContext
    ) {
        // `name`'s last component is the shown path's: no NSString bridge per file (at 100,000
        // sites, two of them cost half a second of a start-up).
        let base = name.lastIndex(of: "/").map { String(name[name.index(after: $0)...]) } ?? name
        self.init(
            path: path, base: base, read: folder.read(name, limit: Self.readLimit + 1), kind: kind, site: site,
            siblings: siblings, folder: folder, signing: signing)
    }

    /// `base`: the file's own name, the last component of `path`.
    private init(
        path: String, base: String, read: FileRead, kind: Kind, site: String?, siblings: Siblings?,
        folder: SiteFolder?, signing: SignedFileContext
    ) {
        self.path = path
        self.kind = kind
        self.site = site
        name = kind == .wellKnownFolder ? WellKnownFile.folderName + "/" + base : kind.rawValue
        expires = nil
        status = read.status
        modified = status?.modifiedSeconds ?? 0
        (byteCount, diagnostics, omitted, bytes, appleFile, androidFile) = (0, [], OmittedDiagnostics(), nil, nil, nil)
        signedContent = nil
        fallbackFile = nil
        (readError, readProblem, isValid) = (nil, .fileUnreadable, false)
        let content: [UInt8]
        switch read {
        case .regular(let status, let bytes):
            // Checked on the bytes read too: the file may grow after fstat(2).
            guard bytes.count <= Self.readLimit else {
                diagnostics = [Self.tooLarge(max(status.size, bytes.count))]
                byteCount = max(status.size, bytes.count)
                return
            }
            content = bytes
        case .tooLarge(let status):
            (diagnostics, byteCount) = ([Self.tooLarge(status.size)], status.size)
            return
        case .notRegular:
            readError = "not a regular file"
            return
        case .linkRefused(let reason):
            (readError, readProblem) = (reason, .linkNotFollowed)
            return
        case .changing:
            readError = FileRead.changingReason
            return
        case .failed(let error, _):
            readError = "cannot read the file: " + error.callAndErrno
            return
        }
        byteCount = content.count
        var input = WellKnownFile.Input(
            content: content, name: base, signing: signing, now: signing.now)
        if kind == .expectations {
            let shownFolder = (path as NSString).deletingLastPathComponent
            input.siblings =
                siblings ?? folder.map { Self.siblings(in: $0, shownAs: shownFolder, signing: signing) } ?? Siblings()
            // A wildcard site's URLs may have any host below it; an exact site's must be it.
            let folderName = (shownFolder as NSString).lastPathComponent
            let name = HostName.siteKey(folder: folderName) ?? folderName.lowercased()
            input.domain = name.hasPrefix("*.") ? nil : name
        }
        let report = kind.file.validate(input)
        (diagnostics, omitted) = (report.diagnostics, report.omitted)
        bytes = report.parsed ? content : nil
        (appleFile, androidFile, fallbackFile) = (report.appleFile, report.androidFile, report.fallbackFile)
        (signedContent, expires) = (report.signedContent, report.expires)
        isValid = bytes != nil && !diagnostics.hasErrors && omitted.errors == 0
    }

    private static func tooLarge(_ size: Int) -> Diagnostic {
        Diagnostic(
            .fileTooLarge, "the file is \(size) bytes; Apple ignores association files over 128 KiB (131072 bytes)",
            at: .start, pointer: "")
    }

    /// The check without the file's bytes and decoded content: what a served snapshot keeps
    /// per file (the status page, metrics and reload need no more; the bytes live on in the
    /// prepared response).
    public var summary: FileCheck {
        var copy = self
        copy.bytes = nil
        copy.signedContent = nil
        copy.appleFile = nil
        copy.androidFile = nil
        copy.fallbackFile = nil
        return copy
    }

    /// The valid files of the site folder `folder`, decoded.
    package static func siblings(in folder: SiteFolder, shownAs shown: String, signing: SignedFileContext) -> Siblings {
        let apple = FileCheck(
            named: Kind.apple.rawValue, in: folder, shownAs: shown + "/" + Kind.apple.rawValue, kind: .apple,
            signing: signing)
        let android = FileCheck(
            named: Kind.android.rawValue, in: folder, shownAs: shown + "/" + Kind.android.rawValue, kind: .android,
            signing: signing)
        return Siblings(
            apple: apple.isValid ? apple.appleFile : nil, android: android.isValid ? android.androidFile : nil)
    }
}
