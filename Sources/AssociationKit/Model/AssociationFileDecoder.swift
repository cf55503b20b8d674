/// Reads a parsed JSON document into an `AssociationFile`, reporting every value of the
/// wrong type and every unknown key on the way. It decodes what Apple would read: a value of
/// the wrong type is reported and then treated as absent, never guessed at.
public struct AssociationFileDecoder {
    let bytes: [UInt8]
    public private(set) var diagnostics: [Diagnostic] = []

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public mutating func decode(_ root: JSONValue) -> AssociationFile? {
        guard let members = root.members else {
            report(
                .topLevelNotObject,
                "the top level must be a JSON object keyed by service (applinks, webcredentials …), found "
                    + "\(root.typeName)",
                at: root)
            return nil
        }
        var file = AssociationFile()
        for member in members {
            let value = member.value
            switch member.key {
            case "applinks": file.appLinks = decodeAppLinks(value)
            case "webcredentials": file.webCredentials = decodeAppList(value)
            case "appclips": file.appClips = decodeAppList(value)
            case "activitycontinuation": file.activityContinuation = decodeAppList(value)
            default:
                file.unknownServices.append(Located(member.key, Origin(value)))
                reportUnknownKey(member, known: AssociationFile.serviceNames, context: "service")
            }
        }
        if file.appLinks == nil && file.webCredentials == nil && file.appClips == nil
            && file.activityContinuation == nil
        {
            report(
                .noServices,
                "the file declares none of the services applinks, webcredentials, appclips or activitycontinuation, "
                    + "so Apple finds nothing in it",
                at: root)
        }
        return file
    }

    // MARK: Services

    mutating func decodeAppList(_ value: JSONValue) -> AppList? {
        guard let members = object(value, "a service") else { return nil }
        var apps: [Located<String>] = []
        var isEmptyArray = false
        for member in members {
            switch member.key {
            case "apps":
                apps = strings(member.value, "app identifiers")
                isEmptyArray = member.value.arrayValue?.isEmpty == true
            case "details":
                report(
                    .detailsOutsideApplinks, "only applinks uses details; this service reads only \"apps\"",
                    at: member.value)
            default: reportUnknownKey(member, known: ["apps"], context: "key of this service")
            }
        }
        if value["apps"] == nil {
            report(.wrongType, "this service needs an \"apps\" array of app identifiers", at: value)
        }
        var list = AppList(apps: apps, origin: Origin(value))
        list.isEmptyArray = isEmptyArray
        return list
    }

    mutating func decodeAppLinks(_ value: JSONValue) -> AppLinks? {
        guard let members = object(value, "applinks") else { return nil }
        var appLinks = AppLinks(origin: Origin(value))
        for member in members {
            let child = member.value
            switch member.key {
            case "details": decodeDetails(child, into: &appLinks)
            case "defaults": appLinks.defaults = decodeComponent(child, index: 0, role: "defaults")
            case "substitutionVariables": appLinks.substitutionVariables = decodeVariables(child)
            case "apps":
                if let elements = array(child, "apps") { appLinks.legacyApps = Located(elements, Origin(child)) }
            default:
                reportUnknownKey(
                    member, known: ["details", "defaults", "substitutionVariables", "apps"], context: "key of applinks")
            }
        }
        return appLinks
    }

    mutating func decodeDetails(_ value: JSONValue, into appLinks: inout AppLinks) {
        if let elements = value.arrayValue {
            appLinks.detailsShape = .array
            for (index, element) in elements.enumerated() {
                if let detail = decodeDetail(element, index: index) { appLinks.details.append(detail) }
            }
        } else if let members = value.members {
            // The WWDC15-era shape, keyed by app ID; Apple's swcutil still accepts it (observed).
            // An object has no defined order, so entries are taken in sorted key order.
            appLinks.detailsShape = .dictionary
            report(
                .detailsDictionary,
                "details is the pre-release dictionary keyed by app ID; write it as an array of {\"appIDs\": […], "
                    + "\"components\": […]} entries",
                at: value)
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                guard var detail = decodeDetail(member.value, index: index) else { continue }
                detail.appIDs.insert(
                    Located(
                        member.key, Origin(location: member.keyLocation, valueOffset: member.value.range.lowerBound)),
                    at: 0)
                detail.hasAppID = true
                appLinks.details.append(detail)
            }
        } else {
            report(.wrongType, "details must be an array of entries, found \(value.typeName)", at: value)
        }
    }

    mutating func decodeDetail(_ value: JSONValue, index: Int) -> AppLinksDetail? {
        guard let members = object(value, "a details entry") else { return nil }
        var detail = AppLinksDetail(index: index, origin: Origin(value))
        for member in members {
            let child = member.value
            switch member.key {
            case "appID":
                detail.hasAppID = true
                if let id = string(child, "appID") {
                    detail.legacyAppID = Located(id, Origin(child))
                    detail.appIDs.insert(Located(id, Origin(child)), at: 0)
                }
            case "appIDs":
                detail.hasAppIDs = true
                detail.appIDsIsEmptyArray = child.arrayValue?.isEmpty == true
                detail.appIDs += strings(child, "app identifiers")
            case "components":
                if let elements = array(child, "components") {
                    detail.components = elements.enumerated().compactMap {
                        decodeComponent($1, index: $0, role: "component")
                    }
                }
            case "paths":
                if let elements = array(child, "paths") {
                    detail.paths = elements.enumerated().compactMap { index, element in
                        string(element, "a path").map { LegacyPath(index: index, text: $0, origin: Origin(element)) }
                    }
                }
            case "defaults": detail.defaults = decodeComponent(child, index: 0, role: "defaults")
            default:
                reportUnknownKey(
                    member, known: ["appID", "appIDs", "components", "paths", "defaults"],
                    context: "key of a details entry")
            }
        }
        return detail
    }

    // MARK: Components

    static let componentKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]

    mutating func decodeComponent(_ value: JSONValue, index: Int, role: String) -> ComponentRule? {
        guard let members = object(value, "a \(role)") else { return nil }
        var rule = ComponentRule(index: index, sourceText: sourceText(of: value), origin: Origin(value))
        for member in members {
            let child = member.value
            switch member.key {
            case "/": rule.path = string(child, "a path pattern").map { Located($0, Origin(child)) }
            case "#": rule.fragment = string(child, "a fragment pattern").map { Located($0, Origin(child)) }
            case "?": rule.query = decodeQuery(child)
            case "exclude": rule.exclude = bool(child, "exclude")
            case "caseSensitive": rule.caseSensitive = bool(child, "caseSensitive")
            case "percentEncoded": rule.percentEncoded = bool(child, "percentEncoded")
            case "comment": rule.comment = string(child, "comment")
            default: reportUnknownKey(member, known: Self.componentKeys, context: "key of a \(role)")
            }
        }
        return rule
    }

    mutating func decodeQuery(_ value: JSONValue) -> QueryRule? {
        if let pattern = value.stringValue { return .whole(Located(pattern, Origin(value))) }
        guard let members = value.members else {
            report(
                .wrongType,
                "\"?\" must be a pattern string or a dictionary of query item patterns, found \(value.typeName)",
                at: value)
            return nil
        }
        if let offender = members.first(where: { $0.value.stringValue == nil }) {
            report(
                .queryDictionaryIgnored,
                "query item \"\(offender.key)\" has \(offender.value.typeName), not a pattern string; Apple then "
                    + "ignores the whole \"?\" dictionary, so every query matches. Write it as a string such as \"*\" "
                    + "or \"1\"",
                at: offender.value)
            return .ignoredDictionary(Origin(value))
        }
        let items = members.compactMap { member in
            member.value.stringValue.map { QueryItemRule(name: member.key, pattern: Located($0, Origin(member.value))) }
        }
        return .items(items, Origin(value))
    }

    mutating func decodeVariables(_ value: JSONValue) -> [SubstitutionVariable] {
        guard let members = object(value, "substitutionVariables") else { return [] }
        return members.map { member in
            SubstitutionVariable(
                name: member.key, values: strings(member.value, "variable values"), origin: Origin(member.value))
        }
    }

    // MARK: Typed access with diagnostics

    mutating func object(_ value: JSONValue, _ what: String) -> [JSONMember]? {
        if let members = value.members { return members }
        report(.wrongType, "\(what) must be an object, found \(value.typeName)", at: value)
        return nil
    }

    mutating func array(_ value: JSONValue, _ what: String) -> [JSONValue]? {
        if let elements = value.arrayValue { return elements }
        report(.wrongType, "\(what) must be an array, found \(value.typeName)", at: value)
        return nil
    }

    mutating func string(_ value: JSONValue, _ what: String) -> String? {
        if let string = value.stringValue { return string }
        report(.wrongType, "\(what) must be a string, found \(value.typeName)", at: value)
        return nil
    }

    mutating func bool(_ value: JSONValue, _ key: String) -> Located<Bool>? {
        if let flag = value.boolValue { return Located(flag, Origin(value)) }
        // "true"/"false" only need their quotes removed; "yes", "1" and the like mean one of them.
        let hint =
            value.stringValue.map { text -> String in
                switch text.lowercased() {
                case "true", "false": " (write \(text.lowercased()) without quotes)"
                case "yes", "y", "on", "1": " (write true, without quotes)"
                case "no", "n", "off", "0": " (write false, without quotes)"
                default: " (write true or false, without quotes)"
                }
            } ?? ""
        report(.wrongType, "\(key) must be true or false, found \(value.typeName)\(hint); Apple ignores it", at: value)
        return nil
    }

    /// An array of strings; non-strings are reported and skipped.
    mutating func strings(_ value: JSONValue, _ what: String) -> [Located<String>] {
        guard let elements = array(value, what) else {
            return []
        }
        return elements.compactMap { element in
            string(element, "each of the \(what)").map { Located($0, Origin(element)) }
        }
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, at value: JSONValue) {
        diagnostics.append(Diagnostic(code, message, at: value))
    }

    mutating func reportUnknownKey(_ member: JSONMember, known: [String], context: String) {
        var message = "unknown \(context) \"\(member.key)\"; Apple ignores it"
        if let suggestion = Spelling.closest(to: member.key, among: known) {
            message += ". Did you mean \"\(suggestion)\"?"
        }
        diagnostics.append(
            Diagnostic(.unknownKey, message, at: member.keyLocation, valueAt: member.value.range.lowerBound))
    }

    func sourceText(of value: JSONValue) -> String {
        let range = value.range.clamped(to: 0..<bytes.count)
        return String(decoding: bytes[range], as: UTF8.self)
    }
}
