/// Reads and checks a site's `fallback.json` (README, "The link domain for people without the
/// app"): every problem is reported with its place and a stable `FBK` code, and a file with
/// an error decodes to nothing, so the server never serves half of one.
public struct FallbackValidator {
    static let keys = [
        "web", "appStoreID", "playPackage", "preview", "rules", "icon", "accentColor", "strings", "comment",
    ]
    static let previewKeys = ["title", "description", "image"]
    static let ruleKeys = ["/", "?", "#", "caseSensitive", "percentEncoded", "comment", "web", "exclude"]

    var diagnostics: [Diagnostic] = []
    /// The component decoder of the association file, for `?` and the pattern keys.
    var components: AssociationFileDecoder

    init(bytes: [UInt8]) {
        components = AssociationFileDecoder(bytes: bytes)
    }

    public static func validate(_ bytes: [UInt8]) -> FallbackReport {
        var validator = FallbackValidator(bytes: bytes)
        let document = JSONDocument.parse(bytes)
        validator.diagnostics += document.diagnostics
        var file: FallbackFile?
        if let root = document.root { file = validator.decode(root) }
        // A `?` the component decoder found fault with is a rule the matcher would read otherwise.
        validator.diagnostics += validator.components.diagnostics.map { found in
            var diagnostic = found
            diagnostic.code = .fallbackInvalidPattern
            diagnostic.severity = DiagnosticCode.fallbackInvalidPattern.severity
            return diagnostic
        }
        let (kept, omitted) = validator.diagnostics.limited(resolvingPointersIn: document.root)
        let valid = !kept.hasErrors && omitted.errors == 0
        return FallbackReport(file: valid ? file : nil, diagnostics: kept, omitted: omitted)
    }

    mutating func decode(_ root: JSONValue) -> FallbackFile? {
        guard let members = root.members else {
            report(
                .fallbackWrongType, "fallback.json must be an object with a \"web\" template, found \(root.typeName)",
                root)
            return nil
        }
        var web: URLTemplate?
        var appStoreID: String?
        var playPackage: String?
        var preview: FallbackPreview?
        var rules: [FallbackRule] = []
        var icon: String?
        var accentColor: AccentColor?
        var strings: [FallbackTexts] = []
        for member in members {
            let value = member.value
            switch member.key {
            case "web": web = template(value, "web")
            case "appStoreID": appStoreID = self.appStoreID(value)
            case "playPackage": playPackage = package(value)
            case "preview": preview = self.preview(value)
            case "rules": rules = self.rules(value)
            case "icon": icon = self.icon(value)
            case "accentColor": accentColor = color(value)
            case "strings": strings = self.strings(value)
            case "comment": break
            default: unknownKey(member, known: Self.keys, context: "fallback.json")
            }
        }
        guard let web else {
            if root["web"] == nil {
                report(
                    .fallbackMissingWeb,
                    "fallback.json needs \"web\": the destination for browsers, such as "
                        + "\"https://www.example.com{path}{query}\"", root)
            }
            return nil
        }
        return FallbackFile(
            web: web, appStoreID: appStoreID, playPackage: playPackage, preview: preview, rules: rules,
            icon: icon, accentColor: accentColor, strings: strings)
    }

    mutating func template(_ value: JSONValue, _ key: String) -> URLTemplate? {
        guard let text = value.stringValue else {
            report(.fallbackWrongType, "\(key) must be a URL template string, found \(value.typeName)", value)
            return nil
        }
        do {
            return try URLTemplate(text)
        } catch {
            switch error {
            case .unknownPlaceholder(let name):
                report(
                    .fallbackUnknownPlaceholder,
                    "\(key): \(name) is not a placeholder; a template has {path} and {query}", value)
            case .notAbsolute, .placeholderInAuthority, .invalidCharacter:
                report(
                    .fallbackInvalidURL,
                    "\(key): \"\(text)\" is not an absolute http:// or https:// URL with a fixed host (placeholders "
                        + "come after the host; no spaces, controls, backslashes or non-ASCII text)", value)
            }
            return nil
        }
    }

    mutating func appStoreID(_ value: JSONValue) -> String? {
        let text = value.stringValue
        guard let text, !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            let found = text.map { "\"\($0)\"" } ?? value.typeName
            let hint = text == nil && value.typeName == "a number" ? " (write it as a string)" : ""
            report(
                .fallbackInvalidAppStoreID,
                "appStoreID must be the App Store ID's digits, as in apps.apple.com/app/id1234567890, found "
                    + found + hint, value)
            return nil
        }
        return text
    }

    /// An application ID as Android defines it: two or more dot-separated segments, each a
    /// letter followed by letters, digits or underscores.
    mutating func package(_ value: JSONValue) -> String? {
        let segments = value.stringValue?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        let valid =
            segments.count >= 2
            && segments.allSatisfy { segment in
                guard let first = segment.utf8.first, first | 0x20 >= 0x61, first | 0x20 <= 0x7A else { return false }
                return segment.utf8.allSatisfy { byte in
                    (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
                }
            }
        guard valid, let name = value.stringValue else {
            let found = value.stringValue.map { "\"\($0)\"" } ?? value.typeName
            report(
                .fallbackInvalidPackage,
                "playPackage must be an Android application ID like com.example.app, found \(found)", value)
            return nil
        }
        return name
    }

    mutating func preview(_ value: JSONValue) -> FallbackPreview? {
        guard let members = value.members else {
            report(.fallbackWrongType, "preview must be an object with a \"title\", found \(value.typeName)", value)
            return nil
        }
        var preview = FallbackPreview(title: "")
        var title: String?
        for member in members {
            let child = member.value
            guard Self.previewKeys.contains(member.key) else {
                unknownKey(member, known: Self.previewKeys, context: "preview")
                continue
            }
            guard let text = child.stringValue else {
                report(.fallbackWrongType, "preview.\(member.key) must be a string, found \(child.typeName)", child)
                continue
            }
            switch member.key {
            case "title": title = text
            case "description": preview.description = text
            default:
                if Self.fixedURL(text) == nil {
                    report(.fallbackInvalidURL, "preview.image: \"\(text)\" is not an absolute http(s) URL", child)
                } else {
                    preview.image = text
                }
            }
        }
        guard let title else {
            report(.fallbackWrongType, "preview needs a \"title\" string", value)
            return nil
        }
        preview.title = title
        return preview
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, _ value: JSONValue) {
        diagnostics.append(Diagnostic(code, message, at: value))
    }

    mutating func unknownKey(_ member: JSONMember, known: [String], context: String) {
        var message = "unknown key \"\(member.key)\" in \(context)"
        if let suggestion = Spelling.closest(to: member.key, among: known) {
            message += ". Did you mean \"\(suggestion)\"?"
        }
        diagnostics.append(
            Diagnostic(.fallbackUnknownKey, message, at: member.keyLocation, valueAt: member.value.range.lowerBound))
    }
}
