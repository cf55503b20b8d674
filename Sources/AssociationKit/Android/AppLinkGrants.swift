/// What App Links verification takes from a domain's statements, by meaning: the (package,
/// certificate fingerprint) pairs granted `handle_all_urls`, each with its Android 15 dynamic
/// rules. The site's assetlinks.json and Google's Digital Asset Links API (`statements:list`)
/// write them differently; both reduce to this, so Google's view can be compared with what
/// was served (docs/watches.md, "Google's view").
public struct AppLinkGrants: Hashable, Sendable {
    public struct Grant: Hashable, Sendable, Comparable {
        public let package: String
        /// Upper-case hex with colons, as both forms write it.
        public let fingerprint: String
        /// The canonical JSON of `dynamic_app_link_components`; nil without dynamic rules.
        public let rules: String?

        public static func < (lhs: Grant, rhs: Grant) -> Bool {
            (lhs.package, lhs.fingerprint, lhs.rules ?? "") < (rhs.package, rhs.fingerprint, rhs.rules ?? "")
        }
    }

    public let grants: Set<Grant>

    public init(_ grants: Set<Grant>) {
        self.grants = grants
    }

    /// The grants of an assetlinks.json (a list of statements); `include` statements are not
    /// followed. nil when the bytes are not a JSON list.
    public init?(assetLinks bytes: [UInt8]) {
        guard let statements = Self.root(bytes)?.arrayValue else { return nil }
        var grants: Set<Grant> = []
        for statement in statements {
            let relations = statement["relation"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard relations.contains(AssetLinks.handleAllURLs),
                let target = statement["target"], target["namespace"]?.stringValue == "android_app",
                let package = target["package_name"]?.stringValue
            else { continue }
            let rules = Self.rules(statement["relation_extensions"])
            for fingerprint in target["sha256_cert_fingerprints"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                grants.insert(Grant(package: package, fingerprint: fingerprint.uppercased(), rules: rules))
            }
        }
        self.grants = grants
    }

    /// The grants in a `ListResponse`'s `statements` (one fingerprint each, `androidApp`
    /// targets in camel case, the extensions under `relationExtensions`).
    public init?(statements: [JSONValue]) {
        var grants: Set<Grant> = []
        for statement in statements {
            guard statement.members != nil else { return nil }
            guard statement["relation"]?.stringValue == AssetLinks.handleAllURLs,
                let app = statement["target"]?["androidApp"], let package = app["packageName"]?.stringValue,
                let fingerprint = app["certificate"]?["sha256Fingerprint"]?.stringValue
            else { continue }
            grants.insert(
                Grant(
                    package: package, fingerprint: fingerprint.uppercased(),
                    rules: Self.rules(statement["relationExtensions"])))
        }
        self.grants = grants
    }

    /// One value per meaning, for the watch's history of served versions.
    public var fingerprint: MeaningFingerprint {
        MeaningFingerprint(
            canonical: grants.sorted().map { "\($0.package)\t\($0.fingerprint)\t\($0.rules ?? "-")" }
                .joined(separator: "\n"))
    }

    /// The dynamic rules in relation extensions: keyed by the relation (the file's form), or
    /// the relation's own extensions (as an answer may give them).
    static func rules(_ extensions: JSONValue?) -> String? {
        let components =
            extensions?[AssetLinks.handleAllURLs]?["dynamic_app_link_components"]
            ?? extensions?["dynamic_app_link_components"]
        return components.map(\.canonical)
    }

    /// The JSON value of `bytes`; nil when they are not one.
    public static func root(_ bytes: [UInt8]) -> JSONValue? {
        let document = JSONDocument.parse(bytes)
        guard !document.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        return document.root
    }
}
