import AssociationKit

/// One kind of file a site folder may hold: a row of the one table of kinds
/// (`FileCheck+Kind.swift`; docs/serving.md, "Every file a domain owes"). Loading,
/// reload, the deleted-file grace, routing, the status page, `/sites.json`, metrics, `probe`,
/// `diff` and `check-app` read the row; a new kind is a `FileCheck.Kind` case and its row (one
/// file), and its validator.
public struct WellKnownFile: Sendable {
    /// What a served file's `Cache-Control` is, unless the site's `site.json` says otherwise.
    public enum CachePolicy: Sendable, Equatable {
        /// The server's `--cache-control` (the association files').
        case server
        /// This value, whatever `--cache-control` says.
        case fixed(String)
    }

    /// What a validator is given: the bytes and what else its kind may need.
    public struct Input {
        public var content: [UInt8]
        /// The file's name in its folder (a `well-known/` file's own name).
        public var name: String
        /// How a signed Apple file is read; nil: only an unsigned one is valid.
        public var signing: SignedFileContext?
        /// The site's decoded files, for `expectations.json`; nil when there are none to check against.
        public var siblings: FileCheck.Siblings?
        /// The site's name for `expectations.json`'s URLs; nil: any host.
        public var domain: String?
        /// Seconds since the epoch.
        public var now: Int

        public init(
            content: [UInt8], name: String, signing: SignedFileContext? = nil, siblings: FileCheck.Siblings? = nil,
            domain: String? = nil, now: Int
        ) {
            (self.content, self.name, self.signing, self.siblings, self.domain) = (
                content, name, signing, siblings, domain
            )
            self.now = now
        }
    }

    /// What a validator found.
    public struct Report: Sendable {
        public var diagnostics: [Diagnostic]
        public var omitted: OmittedDiagnostics
        /// The bytes were understood (parsed, for JSON): a file without errors is then served.
        public var parsed: Bool
        /// A signed Apple file's JSON content.
        public var signedContent: [UInt8]? = nil
        public var appleFile: AssociationFile? = nil
        public var androidFile: AssetLinks? = nil
        public var fallbackFile: FallbackFile? = nil
        /// `security.txt`'s `Expires`, seconds since the epoch.
        public var expires: Int? = nil

        public var isValid: Bool { parsed && !diagnostics.hasErrors && omitted.errors == 0 }

        init(_ diagnostics: [Diagnostic], _ omitted: OmittedDiagnostics, parsed: Bool) {
            (self.diagnostics, self.omitted, self.parsed) = (diagnostics, omitted, parsed)
        }

        init(_ text: TextFileReport) {
            self.init(text.diagnostics, text.omitted, parsed: true)
            expires = text.expires
        }
    }

    public let kind: FileCheck.Kind
    /// The URL paths it is served at; empty for a file that is never served.
    public let paths: [String]
    /// `Content-Type` of its 200 (a signed Apple file's is `application/pkcs7-mime`; a
    /// `well-known/` file's comes from its extension, `contentType(forName:)`).
    public let contentType: String
    /// The largest file its validator accepts.
    public let sizeLimit: Int
    public let cachePolicy: CachePolicy
    /// `probe` fetches and checks it when the site serves it.
    public let probed: Bool
    /// `diff` compares two copies of it by meaning (else by bytes).
    public let diffed: Bool
    /// `check-app` reads it for an app's entitlements.
    public let checkedByApp: Bool
    /// Identical copies across sites are prepared once and shared (one payment platform's
    /// Apple Pay file on thousands of merchant domains).
    public let sharedAcrossSites: Bool
    let validator: @Sendable (Input) -> Report

    /// True when the server serves it.
    public var isServed: Bool { !paths.isEmpty }

    /// The file's name in the site folder.
    public var fileName: String { kind.rawValue }

    /// `input` checked by this kind's validator.
    public func validate(_ input: Input) -> Report { validator(input) }

    /// The `Cache-Control` of this kind for a server whose `--cache-control` is `server` and
    /// a site whose `site.json` overrides it with `site` (nil: no override).
    public func cacheControl(server: String, site: String?) -> String {
        if let site { return site }
        switch cachePolicy {
        case .server: return server
        case .fixed(let value): return value
        }
    }
}
