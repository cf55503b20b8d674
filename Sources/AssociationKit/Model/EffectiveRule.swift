/// A rule as Apple evaluates it: a component with `defaults` applied, or a legacy path.
///
/// Defaults nest domain → app → component, the more specific winning (docs/association-files.md
/// §2, Defaults); this covers pattern keys and `exclude` placed in defaults too (observed with
/// Apple's swcutil). A query dictionary that Apple ignores counts as unset, so it inherits like an absent `?`.
public struct EffectiveRule: Sendable {
    public enum Query: Sendable {
        case any
        case whole(String)
        case items([QueryItemRule])
    }

    public enum Kind: Sendable {
        case component, legacyPath
        /// An Android 15 dynamic rule: compared with the path as written (Android documents no
        /// slash normalization) and without substitution variables.
        case androidRule

        /// How the kind reads in `match --json` (`ruleKind`).
        public var label: String {
            switch self {
            case .component: "component"
            case .legacyPath: "path"
            case .androidRule: "dynamic_rule"
            }
        }
    }

    public var kind: Kind
    /// The index in `components` or `paths`.
    public var index: Int
    /// `nil` means Apple's default `*`.
    public var path: String? {
        didSet { normalizedPath = kind == .androidRule ? path : path.map(PathNormalization.pattern) }
    }
    /// `path` in the form it is compared in (`PathNormalization.pattern`), computed once.
    public private(set) var normalizedPath: String?
    public var query: Query
    public var fragment: String?
    public var exclude: Bool
    public var caseSensitive: Bool
    public var percentEncoded: Bool
    /// The rule as written in the file.
    public var sourceText: String
    public var origin: Origin

    public init(component: ComponentRule, appDefaults: ComponentRule?, domainDefaults: ComponentRule?) {
        kind = .component
        index = component.index
        path = component.path?.value ?? appDefaults?.path?.value ?? domainDefaults?.path?.value
        fragment = component.fragment?.value ?? appDefaults?.fragment?.value ?? domainDefaults?.fragment?.value
        exclude = component.exclude?.value ?? appDefaults?.exclude?.value ?? domainDefaults?.exclude?.value ?? false
        caseSensitive =
            component.caseSensitive?.value ?? appDefaults?.caseSensitive?.value ?? domainDefaults?.caseSensitive?.value
            ?? true
        percentEncoded =
            component.percentEncoded?.value ?? appDefaults?.percentEncoded?.value ?? domainDefaults?.percentEncoded?
            .value ?? true
        query =
            Self.query(component.query) ?? Self.query(appDefaults?.query) ?? Self.query(domainDefaults?.query) ?? .any
        sourceText = component.sourceText
        origin = component.origin
        normalizedPath = path.map(PathNormalization.pattern)
    }

    /// An Android dynamic rule: case-sensitive, compared as written (docs/association-files.md §3).
    public init(androidRule rule: DynamicAppLinkRule) {
        kind = .androidRule
        index = rule.index
        path = rule.path
        query = rule.query.isEmpty ? .any : .items(rule.query)
        fragment = rule.fragment
        exclude = rule.exclude
        caseSensitive = true
        percentEncoded = true
        sourceText = rule.sourceText
        origin = rule.origin
        normalizedPath = rule.path
    }

    /// A query rule as evaluated; an ignored dictionary counts as unset.
    private static func query(_ rule: QueryRule?) -> Query? {
        switch rule {
        case .whole(let pattern)?: .whole(pattern.value)
        case .items(let items, _)?: .items(items)
        case .ignoredDictionary?, nil: nil
        }
    }

    /// A legacy `paths` entry: path only, case-sensitive, compared as written (docs/association-files.md §1).
    public init(legacyPath: LegacyPath) {
        kind = .legacyPath
        index = legacyPath.index
        path = legacyPath.pattern
        query = .any
        fragment = nil
        exclude = legacyPath.isExclusion
        caseSensitive = true
        percentEncoded = true
        sourceText = "\"" + legacyPath.text + "\""
        origin = legacyPath.origin
        normalizedPath = path.map(PathNormalization.pattern)
    }
}

extension AppLinksDetail {
    /// The rules Apple evaluates for this entry, in order: `components` when present (iOS 13+
    /// ignores `paths` then, WWDC19 717), else the legacy `paths`.
    public func effectiveRules(domainDefaults: ComponentRule?) -> [EffectiveRule] {
        if let components {
            return components.map {
                EffectiveRule(component: $0, appDefaults: defaults, domainDefaults: domainDefaults)
            }
        }
        return (paths ?? []).map(EffectiveRule.init(legacyPath:))
    }
}
