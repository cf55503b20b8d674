/// Checks an `apple-app-site-association` file against every rule the spec supports and
/// reports each finding with a stable code, a severity, a fix-it message and its position.
public struct AssociationFileValidator {
    /// Apple ignores files over 128 KB uncompressed (docs/association-files.md, "1. The Apple file"; iOS 9.3.1+); we read KB as
    /// KiB, the larger of the two readings (docs/sites.md, "Sites layout").
    public static let maximumSize = 131_072

    var diagnostics: [Diagnostic] = []
    /// `AlternativeSet.cost` of each custom variable, then of each predefined one used.
    var variableCosts: [String: Int] = [:]
    /// Undefined variables reported so far; past a few hundred, no did-you-mean is computed.
    var undefinedVariablesReported = 0

    /// A pattern whose matching cost (word operations per 64 characters of URL, see
    /// `PatternEngine`) passes this gets AASA311: about 5 ms for a 4,000-character URL here.
    static let expensivePatternCost = 100_000

    /// Validates raw bytes: size, JSON, shape, then the semantic rules.
    public static func validate(_ bytes: [UInt8]) -> ValidationReport {
        validate(bytes, sentSize: bytes.count)
    }

    /// Validates `bytes` as the JSON of a file of `sentSize` bytes as served (larger than the
    /// JSON when it is signed: Apple's limit applies to what is sent).
    static func validate(_ bytes: [UInt8], sentSize: Int) -> ValidationReport {
        var validator = AssociationFileValidator()
        if sentSize > maximumSize {
            validator.diagnostics.append(
                Diagnostic(
                    .fileTooLarge,
                    "the file is \(sentSize) bytes; Apple ignores association files over 128 KiB (\(maximumSize) "
                        + "bytes). Merge components with wildcards or substitution variables",
                    at: .start, pointer: ""))
        }
        let document = JSONDocument.parse(bytes)
        validator.diagnostics += document.diagnostics
        // Past a comment or trailing comma the rest is still checked, so one run shows every
        // problem; but the file is no JSON, so no file is returned to match or serve.
        guard let root = document.recoveredRoot else {
            let (kept, omitted) = validator.diagnostics.limited(resolvingPointersIn: nil)
            return ValidationReport(file: nil, diagnostics: kept, omitted: omitted, byteCount: bytes.count)
        }
        var decoder = AssociationFileDecoder(bytes: bytes)
        let file = decoder.decode(root)
        validator.diagnostics += decoder.diagnostics
        if let file { validator.check(file) }
        let (kept, omitted) = validator.diagnostics.limited(resolvingPointersIn: root)
        return ValidationReport(
            file: document.root == nil ? nil : file, diagnostics: kept, omitted: omitted, byteCount: bytes.count)
    }

    mutating func check(_ file: AssociationFile) {
        if let appLinks = file.appLinks { check(appLinks) }
        for list in [file.webCredentials, file.appClips, file.activityContinuation].compactMap({ $0 }) {
            checkAppList(list.apps, at: list.origin, what: "apps", isEmptyArray: list.isEmptyArray)
        }
    }

    mutating func check(_ appLinks: AppLinks) {
        if appLinks.details.isEmpty {
            let what = appLinks.detailsShape == .missing ? "has no details" : "has an empty details list"
            report(.noDetails, "applinks \(what), so no URL of this domain opens an app", at: appLinks.origin)
        }
        checkLegacyShape(appLinks)
        for variable in appLinks.substitutionVariables {
            variableCosts[variable.name] = AlternativeSet.cost(of: variable.values.map(\.value))
        }
        checkVariables(appLinks)
        var firstEntryOfApp: [String: Int] = [:]
        let defined = Set(appLinks.substitutionVariables.map(\.name) + PredefinedVariables.names)
        for detail in appLinks.details {
            checkDetail(detail)
            for id in detail.appIDs {
                if let first = firstEntryOfApp[id.value], first != detail.index {
                    report(
                        .appInSeveralDetails,
                        "\(id.value) is also listed in details entry \(first); entries are tried in order, so the "
                            + "earlier entry's rules come first",
                        at: id.origin)
                } else {
                    firstEntryOfApp[id.value] = detail.index
                }
            }
            let rules = detail.effectiveRules(domainDefaults: appLinks.defaults)
            checkPatterns(of: detail, rules: rules, appLinks: appLinks, defined: defined)
            checkReachability(rules)
        }
    }

    mutating func checkDetail(_ detail: AppLinksDetail) {
        if !detail.hasAppID && !detail.hasAppIDs {
            report(
                .detailWithoutApp, "this details entry names no app; add \"appIDs\": [\"<TeamID>.<bundle ID>\"]",
                at: detail.origin)
        } else if detail.appIDs.isEmpty && detail.appIDsIsEmptyArray && !detail.hasAppID {
            report(.emptyAppList, "appIDs is empty, so these rules apply to no app", at: detail.origin)
        }
        var apps = detail.appIDs
        if detail.hasAppID && detail.hasAppIDs {
            // appID repeating an element of appIDs is one fact, reported once: here, not also
            // as an app listed twice (AASA204), and its form is checked on the appIDs element.
            if let legacy = detail.legacyAppID,
                let position = apps.firstIndex(where: { $0.origin == legacy.origin }),
                apps.indices.contains(where: { $0 != position && apps[$0].value == legacy.value })
            {
                apps.remove(at: position)
                report(
                    .appIDAndAppIDs,
                    "appID repeats \(legacy.value), which appIDs already lists; remove appID (Apple documents no "
                        + "meaning for both)",
                    at: legacy.origin)
            } else {
                report(
                    .appIDAndAppIDs,
                    "both appID and appIDs are set; Apple documents no meaning for both, so list every app in appIDs",
                    at: detail.origin)
            }
        }
        checkAppList(apps, at: detail.origin, what: "app identifiers")
        if detail.components == nil && detail.paths == nil {
            report(
                .detailWithoutRules, "this entry has neither components nor paths, so it matches no URL",
                at: detail.origin)
        }
        if detail.components != nil, let paths = detail.paths {
            let at = paths.first?.origin ?? detail.origin
            report(
                .pathsIgnored,
                "iOS 13 and later ignore paths when components is present; keep paths only for iOS 12 and earlier",
                at: at)
        }
        if detail.hasAppID && !detail.hasAppIDs && detail.components != nil && detail.paths == nil {
            report(
                .mixedFormats,
                "appID (legacy) with components (iOS 13+): TN3155 advises appIDs with components, or appID with paths",
                at: detail.origin)
        }
        if detail.hasAppIDs && !detail.hasAppID && detail.paths != nil && detail.components == nil {
            report(
                .mixedFormats,
                "appIDs (iOS 13+) with paths (legacy): TN3155 advises appIDs with components, or appID with paths",
                at: detail.origin)
        }
    }

    mutating func checkLegacyShape(_ appLinks: AppLinks) {
        if let apps = appLinks.legacyApps, !apps.value.isEmpty {
            report(
                .legacyAppsNotEmpty, "applinks.apps must be an empty array ([]); apps are listed in details",
                at: apps.origin)
        }
        let usesPaths = appLinks.details.contains { $0.paths != nil }
        if usesPaths && appLinks.legacyApps == nil {
            report(
                .legacyAppsMissing,
                "details use paths, and iOS 12 and earlier (which read only paths) also require \"apps\": [] in "
                    + "applinks; iOS 13 and later read paths without it",
                at: appLinks.origin)
        }
        let readableByOldReleases = appLinks.details.contains { $0.hasAppID && $0.paths != nil }
        if !appLinks.details.isEmpty && !readableByOldReleases {
            report(
                .modernOnly,
                "no entry has appID with paths, so iOS 12 and earlier find no universal links here (fine if you "
                    + "support iOS 13+ only)",
                at: appLinks.origin)
        }
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, at origin: Origin) {
        diagnostics.append(Diagnostic(code, message, at: origin))
    }
}
