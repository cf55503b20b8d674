/// Every diagnostic the library can report. The raw values are stable identifiers: scripts
/// and CI filters rely on them, so a code is never renumbered or reused.
///
/// JSON0xx: the JSON itself (RFC 8259). AASA0xx: the file as a whole. AASA1xx: structure of
/// `applinks` and the services. AASA2xx: application identifiers. AASA3xx: components and
/// patterns. AASA4xx: substitution variables. ADL0xx: Android's assetlinks.json. EXP0xx:
/// expectations.json. FBK0xx: fallback.json. SIG0xx: a CMS-signed Apple file
/// (docs/association-files.md, "Signed files"). XPL0xx: a site's two files compared
/// (docs/association-files.md, "4. Both platforms"). WKN0xx: the other well-known files
/// (the Apple Pay file, a site's `well-known/` folder). SEC0xx: `security.txt` (RFC 9116).
public enum DiagnosticCode: String, Sendable, CaseIterable, Hashable {
    case jsonSyntax = "JSON001"
    case jsonComment = "JSON002"
    case jsonTrailingComma = "JSON003"
    case jsonInvalidNumber = "JSON004"
    case jsonNonFiniteNumber = "JSON005"
    case jsonControlCharacter = "JSON006"
    case jsonInvalidUTF8 = "JSON007"
    case jsonInvalidEscape = "JSON008"
    case jsonLoneSurrogate = "JSON009"
    case jsonTrailingContent = "JSON010"
    case jsonTooDeep = "JSON011"
    case jsonByteOrderMark = "JSON012"
    case jsonUnexpectedEnd = "JSON013"
    case jsonDuplicateKey = "JSON014"
    case jsonSingleQuote = "JSON015"
    case jsonCurlyQuote = "JSON016"

    case fileTooLarge = "AASA001"
    case topLevelNotObject = "AASA002"
    case noServices = "AASA003"
    case unknownKey = "AASA004"
    case wrongType = "AASA005"

    case noDetails = "AASA101"
    case detailsDictionary = "AASA102"
    case legacyAppsNotEmpty = "AASA103"
    case legacyAppsMissing = "AASA104"
    case pathsIgnored = "AASA105"
    case modernOnly = "AASA106"
    case mixedFormats = "AASA107"
    case appIDAndAppIDs = "AASA108"
    case detailWithoutApp = "AASA109"
    case detailWithoutRules = "AASA110"
    case detailsOutsideApplinks = "AASA111"

    case malformedAppID = "AASA201"
    case unusualAppIDPrefix = "AASA202"
    case emptyAppList = "AASA203"
    case duplicateAppID = "AASA204"
    case appInSeveralDetails = "AASA205"
    case appStoreIDPrefix = "AASA206"

    case queryDictionaryIgnored = "AASA301"
    case unreachableComponent = "AASA302"
    case unreachableExclusion = "AASA303"
    case exclusionMatchesAbsentItem = "AASA304"
    case unencodedPattern = "AASA305"
    case encodedPatternDecoded = "AASA306"
    case separatorInPathPattern = "AASA307"
    case componentMatchesEverything = "AASA308"
    case malformedNotPrefix = "AASA309"
    case patternStartsWithSeparator = "AASA310"
    case expensivePattern = "AASA311"

    case invalidVariableName = "AASA401"
    case variableValueReferencesVariable = "AASA402"
    case undefinedVariable = "AASA403"
    case unterminatedVariable = "AASA404"
    case emptyVariable = "AASA405"
    case variableShadowsPredefined = "AASA406"
    case unusedVariable = "AASA407"

    case assetLinksNotArray = "ADL001"
    case malformedRelation = "ADL002"
    case missingRelation = "ADL003"
    case unknownRelation = "ADL004"
    case missingTarget = "ADL005"
    case unknownNamespace = "ADL006"
    case invalidPackageName = "ADL007"
    case missingFingerprints = "ADL008"
    case lowercaseFingerprint = "ADL009"
    case sha1Fingerprint = "ADL010"
    case malformedFingerprint = "ADL011"
    case duplicateFingerprint = "ADL012"
    case invalidWebSite = "ADL013"
    case invalidInclude = "ADL014"
    case malformedDynamicRules = "ADL015"
    case unknownAssetLinksKey = "ADL016"
    case assetLinksWrongType = "ADL017"
    case noAppLinkStatement = "ADL018"
    case publicSigningKey = "ADL019"
    case ruleNeverMatches = "ADL020"
    case starStopsEarly = "ADL021"
    case android15Differs = "ADL022"
    case encodedRulePattern = "ADL023"
    case wildcardRequiresPart = "ADL024"
    case laterStatementIgnored = "ADL025"
    case includeWithStatementFields = "ADL026"
    case insecureWebSite = "ADL027"
    case expectationFailed = "EXP001"
    case malformedExpectation = "EXP002"

    case signedFile = "SIG001"
    case signatureInvalid = "SIG002"
    case signerUntrusted = "SIG003"
    case signerExpired = "SIG004"
    case signerWrongName = "SIG005"
    case signedContentNotJSON = "SIG006"
    case signedUnreadable = "SIG007"
    case signerExpiresSoon = "SIG008"

    // FBK0xx: a site's fallback.json (docs/fallback.md, "The link domain for people without the app").
    case fallbackMissingWeb = "FBK001"
    case fallbackInvalidURL = "FBK002"
    case fallbackUnknownPlaceholder = "FBK003"
    case fallbackInvalidAppStoreID = "FBK004"
    case fallbackInvalidPackage = "FBK005"
    case fallbackInvalidPattern = "FBK006"
    case fallbackUnknownKey = "FBK007"
    case fallbackWrongType = "FBK008"
    case fallbackInsecureIcon = "FBK009"
    case fallbackInvalidColor = "FBK010"
    case fallbackUnknownText = "FBK011"
    case fallbackInvalidLanguage = "FBK012"

    // XPL0xx: a site's apple-app-site-association and assetlinks.json compared (`PlatformComparison`).
    case platformsDisagree = "XPL001"
    case noDynamicRules = "XPL002"
    // WAN0xx: the passkey files, webauthn and passkey-endpoints, and how a relying party's
    // files agree (docs/association-files.md, "Passkeys").
    case passkeyNotObject = "WAN001"
    case webauthnNoOrigins = "WAN002"
    case passkeyWrongType = "WAN003"
    case webauthnInvalidOrigin = "WAN004"
    case webauthnInsecureOrigin = "WAN005"
    case webauthnDuplicateOrigin = "WAN006"
    case webauthnTooManyLabels = "WAN007"
    case webauthnNoRegistrableDomain = "WAN008"
    case publicSuffixListUnavailable = "WAN009"
    case passkeyUnknownKey = "WAN010"
    case passkeyEndpointInvalidURL = "WAN011"
    case passkeyEndpointsEmpty = "WAN012"
    case webCredentialsWithoutAndroid = "WAN020"
    case loginCredentialsWithoutApple = "WAN021"
    case passkeyEndpointsWithoutCredentials = "WAN022"
    // WKN0xx: the well-known files whose format is not JSON (docs/serving.md, "Every file a
    // domain owes").
    case wellKnownEmpty = "WKN001"
    case wellKnownNotText = "WKN002"
    case wellKnownTooLarge = "WKN003"
    case wellKnownUnregistered = "WKN004"
    // SEC0xx: security.txt (RFC 9116).
    case securityTxtNoContact = "SEC001"
    case securityTxtNoExpires = "SEC002"
    case securityTxtSeveralExpires = "SEC003"
    case securityTxtExpired = "SEC004"
    case securityTxtExpiresSoon = "SEC005"
    case securityTxtInvalidExpires = "SEC006"
    case securityTxtUnknownField = "SEC007"
    case securityTxtMalformedLine = "SEC008"
    case securityTxtInvalidURI = "SEC009"
    case securityTxtBadSignature = "SEC010"
    case securityTxtNotText = "SEC011"

    /// The severity the code is reported with.
    public var severity: Severity {
        switch self {
        case .jsonDuplicateKey, .unknownKey, .noDetails, .detailsDictionary, .legacyAppsNotEmpty,
            .legacyAppsMissing, .pathsIgnored, .mixedFormats, .appIDAndAppIDs, .detailWithoutRules,
            .detailsOutsideApplinks, .emptyAppList, .duplicateAppID,
            .appInSeveralDetails, .unreachableComponent, .unreachableExclusion,
            .exclusionMatchesAbsentItem, .unencodedPattern, .encodedPatternDecoded,
            .separatorInPathPattern, .componentMatchesEverything, .malformedNotPrefix,
            .patternStartsWithSeparator, .expensivePattern, .emptyVariable, .variableShadowsPredefined, .unusedVariable,
            .unknownRelation, .duplicateFingerprint, .unknownAssetLinksKey, .appStoreIDPrefix, .publicSigningKey,
            .signerExpiresSoon, .platformsDisagree:
            .warning
        case .ruleNeverMatches, .starStopsEarly, .android15Differs, .encodedRulePattern, .wildcardRequiresPart,
            .laterStatementIgnored, .insecureWebSite:
            .warning
        case .webauthnDuplicateOrigin, .webauthnNoRegistrableDomain, .publicSuffixListUnavailable, .passkeyUnknownKey,
            .passkeyEndpointsEmpty:
            .warning
        case .modernOnly, .noAppLinkStatement, .signedFile, .noDynamicRules:
            .info
        case .webCredentialsWithoutAndroid, .loginCredentialsWithoutApple, .passkeyEndpointsWithoutCredentials:
            .info
        case .securityTxtExpiresSoon: .warning
        case .wellKnownUnregistered, .securityTxtUnknownField: .info
        default:
            .error
        }
    }

    /// One line on what the code means, for the README table and `validate --list-codes`.
    public var summary: String {
        switch self {
        case .jsonSyntax: "Not JSON at this character (unexpected or missing token)."
        case .jsonComment: "A comment; JSON has none, and Apple's parser rejects the file."
        case .jsonTrailingComma: "A comma before `}` or `]`."
        case .jsonInvalidNumber: "A number JSON does not allow (leading zero, missing digits)."
        case .jsonNonFiniteNumber: "NaN or Infinity, which JSON does not have."
        case .jsonControlCharacter: "A raw control character (tab, newline …) inside a string."
        case .jsonInvalidUTF8: "Bytes that are not UTF-8."
        case .jsonInvalidEscape: "A backslash escape JSON does not define."
        case .jsonLoneSurrogate: "A \\u escape for half a surrogate pair."
        case .jsonTrailingContent: "Something after the top-level value."
        case .jsonTooDeep: "Nesting deeper than 256 levels."
        case .jsonByteOrderMark: "A UTF-8 byte-order mark before the JSON."
        case .jsonUnexpectedEnd: "The file ends inside a value (or is empty)."
        case .jsonDuplicateKey: "A key given twice in one object; only the last one counts."
        case .jsonSingleQuote: "A string in single quotes; JSON strings use double quotes."
        case .jsonCurlyQuote: "A curly quote (“ ” ‘ ’) where JSON needs a straight double quote."
        case .fileTooLarge: "Over 128 KiB (131072 bytes); Apple ignores such files."
        case .topLevelNotObject: "The top level is not a JSON object."
        case .noServices: "None of applinks, webcredentials, appclips, activitycontinuation."
        case .unknownKey: "A key Apple does not define (often a misspelling); it is ignored."
        case .wrongType: "A value of the wrong type (for example a string where an array belongs)."
        case .noDetails: "applinks without details: no URL opens an app."
        case .detailsDictionary: "details written as the pre-release dictionary keyed by app ID."
        case .legacyAppsNotEmpty: "applinks.apps must be an empty array."
        case .legacyAppsMissing: "paths are used, but iOS 12 and earlier also need \"apps\": []."
        case .pathsIgnored: "paths beside components: iOS 13 and later ignore paths."
        case .modernOnly: "Only appIDs/components: iOS 12 and earlier cannot read the file."
        case .mixedFormats: "appID with components, or appIDs with paths (TN3155: do not mix)."
        case .appIDAndAppIDs: "Both appID and appIDs in one entry."
        case .detailWithoutApp: "A details entry that names no app."
        case .detailWithoutRules: "A details entry with neither components nor paths."
        case .detailsOutsideApplinks: "details under a service other than applinks, which ignore it."
        case .malformedAppID: "Not <App ID prefix>.<bundle ID>."
        case .unusualAppIDPrefix: "The prefix is not a team ID (10 upper-case letters or digits), or is missing."
        case .emptyAppList: "An empty list of apps."
        case .duplicateAppID: "The same app listed twice in one list."
        case .appInSeveralDetails: "The same app in several details entries; order then matters."
        case .appStoreIDPrefix: "The prefix is ten digits: an App Store ID, not the team ID."
        case .queryDictionaryIgnored: "A non-string value in a query dictionary; Apple ignores the whole dictionary."
        case .unreachableComponent: "An earlier component already matches every URL this one would."
        case .unreachableExclusion: "An exclusion after a broader rule that already matched: it never excludes."
        case .exclusionMatchesAbsentItem: "An exclusion whose query item is `*` also excludes URLs without the item."
        case .unencodedPattern: "Spaces or non-ASCII text while percentEncoded is true: never matches."
        case .encodedPatternDecoded: "Percent escapes while percentEncoded is false: the URL is decoded first."
        case .separatorInPathPattern: "`?` or `#` in a path pattern is a wildcard or literal, not a separator."
        case .componentMatchesEverything: "A component with no pattern: it matches every URL."
        case .malformedNotPrefix: "A legacy path that looks like an exclusion without the exact `NOT ` prefix."
        case .patternStartsWithSeparator:
            "A query or fragment pattern starting with `?` or `#`, which is a wildcard or literal."
        case .expensivePattern:
            "Variables whose values make one pattern very costly to match (many uses, many wildcard values)."
        case .invalidVariableName: "A substitution variable name that is empty or contains $, ( or )."
        case .variableValueReferencesVariable: "A variable value that refers to another variable."
        case .undefinedVariable: "$(name) with no such variable: the pattern never matches."
        case .unterminatedVariable: "`$(` without a closing `)`."
        case .emptyVariable: "A variable with no values never matches."
        case .variableShadowsPredefined: "A custom variable named like a predefined one."
        case .unusedVariable: "A variable no pattern uses."
        case .assetLinksNotArray: "assetlinks.json is not a JSON array of statements."
        case .malformedRelation: "A relation not of the form kind/detail with [a-z0-9_.]+."
        case .missingRelation: "A statement without a relation list."
        case .unknownRelation: "A relation close to a predefined one (likely a typo)."
        case .missingTarget: "A statement with neither target nor include."
        case .unknownNamespace: "A target namespace other than android_app or web."
        case .invalidPackageName: "package_name is not an Android application ID."
        case .missingFingerprints: "An android_app target without sha256_cert_fingerprints."
        case .lowercaseFingerprint: "A fingerprint in lower-case hex; Android requires upper case."
        case .sha1Fingerprint: "A SHA-1 fingerprint (20 bytes) where SHA-256 (32) is required."
        case .malformedFingerprint: "A fingerprint that is not 32 colon-separated hex bytes (base64, no colons …)."
        case .duplicateFingerprint: "The same fingerprint twice."
        case .invalidWebSite: "A web target that is not http(s)://host[:port] without a path."
        case .invalidInclude: "An include that is not an HTTPS URL."
        case .malformedDynamicRules: "Malformed dynamic_app_link_components: Android discards all dynamic rules."
        case .unknownAssetLinksKey: "A key Digital Asset Links does not define; it is ignored."
        case .assetLinksWrongType: "A value of the wrong type in assetlinks.json."
        case .noAppLinkStatement: "No statement grants handle_all_urls to an app: App Links will not verify."
        case .publicSigningKey:
            "The fingerprint of a publicly known signing key (a template's debug key): anyone can sign with it."
        case .ruleNeverMatches: "A dynamic rule Android never matches: no part, or an empty pattern."
        case .starStopsEarly:
            "A `*` followed by a character that recurs later: on Android `*` stops at that character's first occurrence."
        case .android15Differs:
            "A dynamic rule Android 15's parser reads differently (`?*` before text, a dotted literal)."
        case .encodedRulePattern: "A percent-encoded dynamic rule pattern: Android compares the decoded URL part."
        case .wildcardRequiresPart:
            "`\"#\": \"*\"` or a `?` item `\"*\"`: on Android it requires the fragment or parameter to be present."
        case .laterStatementIgnored:
            "A second statement for a package with other dynamic rules: Android takes the first statement's."
        case .includeWithStatementFields: "An include statement with a target or relation: Google rejects the list."
        case .insecureWebSite: "A web target with an http:// site: Android verifies HTTPS sites only."
        case .expectationFailed: "A URL in expectations.json gets another decision than the one promised."
        case .malformedExpectation: "An expectations.json entry that cannot be checked (shape, URL, decision)."
        case .signedFile:
            "A CMS-signed file (iOS 8): iOS 9+ reads plain JSON, and the signature breaks when its certificate expires."
        case .signatureInvalid: "The signature does not verify (the content was changed after signing)."
        case .signerUntrusted: "The signer certificate does not chain to a trusted root."
        case .signerExpired: "The signer certificate has expired (or is not valid yet)."
        case .signerWrongName: "The signer certificate does not name the site's domain."
        case .signedContentNotJSON: "The signed content is not JSON."
        case .signedUnreadable: "CMS that cannot be read (damaged, detached signature, not SignedData)."
        case .signerExpiresSoon: "The signer certificate expires within 30 days."
        case .fallbackMissingWeb: "fallback.json without its `web` template."
        case .fallbackInvalidURL: "A template or image that is not an absolute http(s) URL with a fixed host."
        case .fallbackUnknownPlaceholder: "A placeholder other than {path} and {query}."
        case .fallbackInvalidAppStoreID: "appStoreID is not the App Store ID's digits."
        case .fallbackInvalidPackage: "playPackage is not an Android application ID."
        case .fallbackInvalidPattern: "A rule pattern the matcher would never match as written."
        case .fallbackUnknownKey: "A key fallback.json does not define (often a misspelling)."
        case .fallbackWrongType: "A value of the wrong type, or a rule with neither web nor exclude."
        case .fallbackInsecureIcon: "icon is not an https:// URL with a fixed host."
        case .fallbackInvalidColor: "accentColor is not a #RRGGBB colour."
        case .fallbackUnknownText: "A text key of strings other than title, description, store and web."
        case .fallbackInvalidLanguage: "A key of strings that is not a well-formed language tag (BCP 47)."
        case .platformsDisagree:
            "A URL (built from the files' rules) that one platform opens in an app and the other keeps on the web."
        case .noDynamicRules:
            "Apple's file keeps URLs on the web, but assetlinks.json has no dynamic rules (the message gives them)."
        case .passkeyNotObject: "webauthn or passkey-endpoints is not a JSON object."
        case .webauthnNoOrigins: "webauthn without origins, or with an empty list."
        case .passkeyWrongType: "A value of the wrong type in webauthn or passkey-endpoints."
        case .webauthnInvalidOrigin: "Not an origin: scheme://host[:port] without path, query, fragment or user."
        case .webauthnInsecureOrigin: "An origin that is not https (http only for localhost)."
        case .webauthnDuplicateOrigin: "The same origin listed twice."
        case .webauthnTooManyLabels: "A sixth registrable-domain label: browsers skip the origins past the fifth."
        case .webauthnNoRegistrableDomain: "An origin whose host is an IP address or a public suffix: browsers skip it."
        case .publicSuffixListUnavailable: "The Public Suffix List could not be read: the labels were not counted."
        case .passkeyUnknownKey: "A key webauthn or passkey-endpoints does not define; it is ignored."
        case .passkeyEndpointInvalidURL: "enroll or manage that is not an absolute https URL."
        case .passkeyEndpointsEmpty: "passkey-endpoints with neither enroll nor manage."
        case .webCredentialsWithoutAndroid:
            "webcredentials, but no assetlinks.json grant of credentials to an Android app."
        case .loginCredentialsWithoutApple: "An assetlinks.json get_login_creds grant, but no webcredentials for Apple."
        case .passkeyEndpointsWithoutCredentials: "passkey-endpoints, but neither webcredentials nor get_login_creds."
        case .wellKnownEmpty: "An empty Apple Pay domain association file."
        case .wellKnownNotText: "An Apple Pay domain association file that is not text (control bytes, not UTF-8)."
        case .wellKnownTooLarge: "A well-known file over its kind's size limit (64 KiB Apple Pay, 128 KiB others)."
        case .wellKnownUnregistered: "A file of well-known/ whose name is not in IANA's Well-Known URIs registry."
        case .securityTxtNoContact: "security.txt without a Contact field."
        case .securityTxtNoExpires: "security.txt without an Expires field."
        case .securityTxtSeveralExpires: "security.txt with more than one Expires field."
        case .securityTxtExpired: "security.txt whose Expires is past."
        case .securityTxtExpiresSoon: "security.txt whose Expires is within 30 days."
        case .securityTxtInvalidExpires: "An Expires that is not an RFC 3339 date and time."
        case .securityTxtUnknownField: "A field RFC 9116 does not define; readers ignore it."
        case .securityTxtMalformedLine: "A line that is neither Field: value, a # comment nor blank."
        case .securityTxtInvalidURI: "A Contact, Policy … value that is not a URI, or a web URI that is not https."
        case .securityTxtBadSignature: "An OpenPGP cleartext signature whose framing is broken."
        case .securityTxtNotText: "security.txt that is not UTF-8 text."
        }
    }

    /// Shown without `--verbose` although a note: what a signed file's owner must know, and
    /// the dynamic rules that would make Android keep Apple's exclusions.
    public var isAlwaysShown: Bool { self == .signedFile || self == .noDynamicRules }

    /// A code of a file that is not JSON (SEC0xx, WKN0xx): no JSON pointer to show.
    public var isAboutText: Bool { rawValue.hasPrefix("SEC") || rawValue.hasPrefix("WKN") }

    /// One of a signed file's codes (SIG0xx), about the signature rather than the JSON.
    public var isAboutSignature: Bool { rawValue.hasPrefix("SIG") }
}
