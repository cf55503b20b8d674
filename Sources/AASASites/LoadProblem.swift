import AssociationKit

/// One problem of one load, typed until the edge renders it (a `validate` line, a JSON log
/// event, a metric, a row of the status page): what it is (`code`), how bad (`severity`),
/// which site and file, and where in the file when it is about the file's content.
/// A file's own diagnostics become problems through `init(_:file:site:)`; problems that are
/// not about a file's JSON (an unreadable folder, an alias to nothing, an expired
/// certificate) carry a `Code` of their own.
public struct LoadProblem: Sendable, Hashable {
    /// Stable codes for problems outside a file's content, listed in the README
    /// ("Load problems"); a file's diagnostics keep their `AASA…`/`AL…` codes.
    public enum Code: String, Sendable, CaseIterable {
        case sitesUnreadable = "SITE001"
        case fileUnreadable = "SITE002"
        case misnamedFile = "SITE003"
        case emptySite = "SITE004"
        case linkNotFollowed = "SITE005"
        case aliasWithoutSite = "SITE006"
        /// Diagnostics past the per-file cap, counted rather than listed.
        case diagnosticsOmitted = "SITE007"
        /// A folder whose name is not a host name (`HostName.siteKey`): no request reaches it.
        case folderNotAHost = "SITE008"
        /// A folder whose normalized name is another folder's (`Example.COM.`, `example.com`).
        case folderCollides = "SITE009"
        /// A site folder that could not be opened or listed (open, dup, readdir failed: EMFILE,
        /// ENFILE, EACCES, EIO): never read as empty; the site keeps its last good files.
        case siteUnreadable = "SITE010"
        /// A served file deleted while its site folder stays: its last copy serves for the
        /// deleted-file grace (`--deleted-file-grace`), then the path answers 404.
        case fileDeleted = "SITE011"
        /// A `site.json` that is not JSON, not an object, or whose `aliases` is not an array of strings.
        case siteFileNotJSON = "SITE012"
        /// A `site.json` alias that is not a host name: not served.
        case siteAliasNotAHost = "SITE013"
        /// A `site.json` alias that a site folder or a link alias holds, or that a wildcard
        /// covers: the folder (or link, or wildcard) keeps it.
        case siteAliasCollides = "SITE014"
        /// A key `site.json` does not know (ignored).
        case siteFileUnknownKey = "SITE015"
        /// A `site.json` alias that is a host name but no exact one: a wildcard, an IP address,
        /// `localhost`, a single label. Not served.
        case siteAliasNotExact = "SITE016"
        /// A `site.json` alias that two or more sites' `site.json` name: served by none of them.
        case siteAliasClaimedTwice = "SITE017"
        case certificateExpired = "CERT001"
        case certificateExpiring = "CERT002"
        case certificateWithoutNames = "CERT003"
        case certificateUnusable = "CERT004"
        case noCertificates = "CERT005"
        case noDefaultCertificate = "CERT006"
        /// An RSA key (info): each new connection's signature costs about three times an ECDSA
        /// P-256 key's (docs/development.md, "The cost of a click").
        case certificateRSAKey = "CERT007"
        /// A `site.json` `changePassword` that is not an absolute https URL: no redirect is served.
        case siteChangePasswordInvalid = "SITE030"
        /// A `site.json` `cacheControl` that is not an object of kinds to header values; the
        /// kind's own policy stays.
        case siteCacheControlInvalid = "SITE031"
    }

    /// The file or folder the problem is about, as the operator named it.
    public var path: String
    public var severity: Severity
    public var message: String
    /// A `Code` raw value or a file diagnostic's code (`AASA101`).
    public var code: String
    /// The site folder's name (a domain or `*.domain`); nil for certificates and for files
    /// outside a sites folder.
    public var site: String?
    /// 1-based, for problems in a file's content.
    public var lineNumber: Int?
    public var column: Int?
    /// The JSON pointer of the value a content problem is about (`/applinks/details/0`).
    public var pointer: String?

    public init(_ path: String, _ code: Code, _ severity: Severity, _ message: String, site: String? = nil) {
        self.path = path
        self.code = code.rawValue
        self.severity = severity
        self.message = message
        self.site = site
    }

    /// A file's diagnostic, placed in its site.
    public init(_ diagnostic: Diagnostic, file: String, site: String?) {
        path = file
        code = diagnostic.code.rawValue
        severity = diagnostic.severity
        message = diagnostic.messageWithPointer
        self.site = site
        lineNumber = diagnostic.location.line
        column = diagnostic.location.column
        pointer = diagnostic.pointer
    }

    /// `PATH[:LINE:COLUMN]: error|warning: MESSAGE [CODE]`, the `validate` format, on one line
    /// whatever a folder's name holds (`SITE008` names a folder named with a line break).
    public var rendered: String {
        let position = lineNumber.map { ":\($0):\(column ?? 1)" } ?? ""
        return "\(Self.oneLine(path))\(position): \(severity.rawValue): \(Self.oneLine(message)) [\(code)]"
    }

    /// `text` with line breaks and other controls (C0, DEL, C1, U+2028, U+2029) escaped by
    /// Unicode scalar as the text log writes them (`\n`, `\r`, `\t`, `\u{HH}`), so a name
    /// cannot end the line and forge the next one.
    static func oneLine(_ text: String) -> String {
        let breaks = { (scalar: Unicode.Scalar) in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029
        }
        guard text.unicodeScalars.contains(where: breaks) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where breaks(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Array where Element == LoadProblem {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
