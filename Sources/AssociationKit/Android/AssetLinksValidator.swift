/// Reads and checks an `assetlinks.json` (Digital Asset Links): statements, relations, android_app and
/// web targets, includes and Android 15 dynamic rules, each finding with an `ADL…` code.
public struct AssetLinksValidator {
    let bytes: [UInt8]
    var diagnostics: [Diagnostic] = []

    public struct Report: Sendable {
        public var file: AssetLinks?
        /// At most `OmittedDiagnostics.limit` of them; the rest are counted in `omitted`.
        public var diagnostics: [Diagnostic]
        public var omitted: OmittedDiagnostics
        public var isValid: Bool { file != nil && !diagnostics.hasErrors && omitted.errors == 0 }
    }

    public static func validate(_ bytes: [UInt8]) -> Report {
        var validator = AssetLinksValidator(bytes: bytes)
        if bytes.count > AssociationFileValidator.maximumSize {
            validator.diagnostics.append(
                Diagnostic(
                    .fileTooLarge,
                    "the file is \(bytes.count) bytes; keep association files under 128 KiB (131072 bytes)", at: .start,
                    pointer: ""))
        }
        let document = JSONDocument.parse(bytes)
        validator.diagnostics += document.diagnostics
        // As for Apple's file: checked past recovered JSON mistakes, but no file returned.
        guard let root = document.recoveredRoot else {
            let (kept, omitted) = validator.diagnostics.limited(resolvingPointersIn: nil)
            return Report(file: nil, diagnostics: kept, omitted: omitted)
        }
        let file = validator.read(root)
        let (kept, omitted) = validator.diagnostics.limited(resolvingPointersIn: root)
        return Report(file: document.root == nil ? nil : file, diagnostics: kept, omitted: omitted)
    }

    mutating func read(_ root: JSONValue) -> AssetLinks? {
        guard let elements = root.arrayValue else {
            report(
                .assetLinksNotArray, "assetlinks.json must be a JSON array of statements, found \(root.typeName)",
                at: root)
            return nil
        }
        var file = AssetLinks()
        for (index, element) in elements.enumerated() {
            if let statement = readStatement(element, index: index) { file.statements.append(statement) }
        }
        reportLaterStatements(file)
        let grantsApp = file.statements.contains { statement in
            if case .androidApp? = statement.target { return statement.relations.contains(AssetLinks.handleAllURLs) }
            return false
        }
        if !grantsApp && !file.statements.contains(where: { $0.include != nil }) {
            report(
                .noAppLinkStatement,
                "no statement grants \(AssetLinks.handleAllURLs) to an android_app target, so Android App Links will "
                    + "not verify for this site",
                at: root)
        }
        return file
    }

    mutating func readStatement(_ value: JSONValue, index: Int) -> AssetLinksStatement? {
        guard let members = value.members else {
            report(.assetLinksWrongType, "a statement must be an object, found \(value.typeName)", at: value)
            return nil
        }
        var statement = AssetLinksStatement(index: index, origin: Origin(value))
        var target: JSONValue?
        for member in members {
            switch member.key {
            case "relation": statement.relations = readRelations(member.value)
            case "target": target = member.value
            case "include": statement.include = readInclude(member.value)
            case "relation_extensions": statement.dynamicRules = readExtensions(member.value)
            default: reportUnknown(member, known: ["relation", "target", "include", "relation_extensions"])
            }
        }
        // The target is read after the relations, wherever it stands: they decide what a web
        // site may be.
        if let target { statement.target = readTarget(target, relations: statement.relations) }
        if statement.include != nil, let field = value["target"] ?? value["relation"] {
            report(
                .includeWithStatementFields,
                "an include statement holds nothing else: Google's parser rejects the whole statement list for a "
                    + "\"target\" or \"relation\" beside \"include\" (an invalid field), while AOSP's follows the "
                    + "include and drops them; write the grant as a statement of its own",
                at: field)
        }
        if statement.include == nil {
            if value["relation"] == nil {
                report(.missingRelation, "a statement needs \"relation\": [\"\(AssetLinks.handleAllURLs)\"]", at: value)
            }
            if value["target"] == nil {
                let message = #"a statement needs a "target" (or is an {"include": "https://…"})"#
                report(.missingTarget, message, at: value)
            }
        }
        return statement
    }

    /// `kind/detail`, both `[a-z0-9_.]+` (docs/association-files.md §3).
    mutating func readRelations(_ value: JSONValue) -> [String] {
        guard let elements = value.arrayValue else {
            report(.assetLinksWrongType, "relation must be an array of strings, found \(value.typeName)", at: value)
            return []
        }
        if elements.isEmpty {
            report(.missingRelation, "the relation list is empty, so the statement grants nothing", at: value)
        }
        var relations: [String] = []
        for element in elements {
            guard let relation = element.stringValue else {
                report(.assetLinksWrongType, "each relation must be a string, found \(element.typeName)", at: element)
                continue
            }
            let parts = relation.split(separator: "/", omittingEmptySubsequences: false)
            let wellFormed =
                parts.count == 2
                && parts.allSatisfy { part in
                    !part.isEmpty
                        && part.utf8.allSatisfy {
                            ("a"..."z").contains(Unicode.Scalar($0)) || ("0"..."9").contains(Unicode.Scalar($0))
                                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
                        }
                }
            if !wellFormed {
                report(
                    .malformedRelation,
                    "\"\(relation)\" is not kind/detail in lower-case letters, digits, _ and . (for App Links: "
                        + "\(AssetLinks.handleAllURLs))",
                    at: element)
            } else if ![AssetLinks.handleAllURLs, AssetLinks.getLoginCredentials].contains(relation),
                let suggestion = Spelling.closest(
                    to: relation, among: [AssetLinks.handleAllURLs, AssetLinks.getLoginCredentials])
            {
                report(
                    .unknownRelation, "\"\(relation)\" is not a predefined relation; did you mean \"\(suggestion)\"?",
                    at: element)
            }
            relations.append(relation)
        }
        return relations
    }

    mutating func readInclude(_ value: JSONValue) -> String? {
        guard let include = value.stringValue else {
            report(.assetLinksWrongType, "include must be a URL string, found \(value.typeName)", at: value)
            return nil
        }
        // The scheme is case-insensitive (RFC 3986 §3.1), as Google's compatibility tests read it.
        guard include.lowercased().hasPrefix("https://") else {
            report(
                .invalidInclude,
                "include must be an https:// URL of another statement list (only HTTPS is followed, never a redirect)",
                at: value)
            return include
        }
        let rest = include.dropFirst(8)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let problem = Self.authorityProblem(authority) {
            report(.invalidInclude, "include \"\(include)\": \(problem)", at: value)
        }
        return include
    }

    /// What is wrong with a URL's `host[:port]`, or nil: an empty or invalid host, or a port
    /// that is not a number from 1 to 65535 (RFC 3986 §3.2.3; TCP has no other).
    static func authorityProblem(_ authority: Substring) -> String? {
        guard HostName.normalize(String(authority)) != nil else { return "\"\(authority)\" is not a host name" }
        let afterBracket = authority.lastIndex(of: "]").map { authority[$0...] } ?? authority
        guard let colon = afterBracket.lastIndex(of: ":") else { return nil }
        let port = authority[authority.index(after: colon)...]
        guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII), let number = Int(port),
            (1...65535).contains(number)
        else { return "the port \"\(port)\" is not a number from 1 to 65535" }
        return nil
    }

    /// A package granted `handle_all_urls` by several statements takes its dynamic rules from
    /// the first; a later one with other rules (or none where the first has some) does not count.
    mutating func reportLaterStatements(_ file: AssetLinks) {
        var first: [String: AssetLinksStatement] = [:]
        for statement in file.statements {
            guard let package = statement.appLinksPackage else { continue }
            guard let earlier = first[package] else {
                first[package] = statement
                continue
            }
            let rules = { (statement: AssetLinksStatement) in statement.dynamicRules?.map(\.sourceText) }
            guard rules(earlier) != rules(statement) else { continue }
            diagnostics.append(
                Diagnostic(
                    .laterStatementIgnored,
                    "statements[\(earlier.index)] already grants \(AssetLinks.handleAllURLs) to \(package): Android "
                        + "takes the package's dynamic rules from that first statement, so this one's "
                        + (statement.dynamicRules == nil ? "lack of rules" : "rules")
                        + " do not count; put its fingerprints in statements[\(earlier.index)] and keep one set of rules",
                    at: statement.origin))
        }
    }

    func sourceText(of value: JSONValue) -> String {
        String(decoding: bytes[value.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, at value: JSONValue) {
        diagnostics.append(Diagnostic(code, message, at: value))
    }

    mutating func reportUnknown(_ member: JSONMember, known: [String]) {
        var message = "unknown key \"\(member.key)\"; Android ignores it"
        if let suggestion = Spelling.closest(to: member.key, among: known) {
            message += ". Did you mean \"\(suggestion)\"?"
        }
        diagnostics.append(
            Diagnostic(.unknownAssetLinksKey, message, at: member.keyLocation, valueAt: member.value.range.lowerBound))
    }
}
