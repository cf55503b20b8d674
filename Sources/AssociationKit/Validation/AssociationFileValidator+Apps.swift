extension AssociationFileValidator {
    /// Checks a list of application identifiers: form, prefix, duplicates, emptiness.
    /// `isEmptyArray` says the list was written `[]` (a wrong type is reported once, by the
    /// decoder, not again as an empty list).
    mutating func checkAppList(_ apps: [Located<String>], at origin: Origin, what: String, isEmptyArray: Bool = false) {
        var seen: Set<String> = []
        for app in apps {
            checkAppIdentifier(app)
            if !seen.insert(app.value).inserted {
                report(.duplicateAppID, "\(app.value) is listed twice", at: app.origin)
            }
        }
        if isEmptyArray && what == "apps" {
            report(.emptyAppList, "the apps list is empty, so this service applies to no app", at: origin)
        }
    }

    /// `<Application Identifier Prefix>.<Bundle Identifier>` (docs/association-files.md §1); bundle IDs use
    /// only letters, digits, hyphens and periods (docs/association-files.md §1).
    mutating func checkAppIdentifier(_ app: Located<String>) {
        let text = app.value
        let utf8 = Array(text.utf8)
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")), dot > 0, dot < utf8.count - 1 else {
            report(
                .malformedAppID,
                "\"\(text)\" is not an application identifier; write <App ID prefix>.<bundle ID>, for example "
                    + "ABCDE12345.com.example.app",
                at: app.origin)
            return
        }
        let prefix = utf8[..<dot]
        let bundle = utf8[(dot + 1)...]
        let prefixIsAlphanumeric = prefix.allSatisfy(isASCIIAlphanumeric)
        var bundleIsValid = bundle.first != UInt8(ascii: ".") && bundle.last != UInt8(ascii: ".")
        var previous: UInt8 = 0
        for byte in bundle {
            if !(isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")) {
                bundleIsValid = false
            }
            if byte == UInt8(ascii: ".") && previous == UInt8(ascii: ".") { bundleIsValid = false }
            previous = byte
        }
        guard prefixIsAlphanumeric && bundleIsValid else {
            let prefixText = String(decoding: prefix, as: UTF8.self)
            let bundleText = String(decoding: bundle, as: UTF8.self)
            let part =
                prefixIsAlphanumeric
                ? "bundle ID \"\(bundleText)\" may use only letters, digits, hyphens and periods"
                : "prefix \"\(prefixText)\" must be letters and digits"
            report(.malformedAppID, "\"\(text)\" is not an application identifier: the \(part)", at: app.origin)
            return
        }
        let isTeamStyle =
            prefix.count == 10
            && prefix.allSatisfy {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            }
        // Team IDs mix letters and digits (ten random ones are all digits about 3 times in a
        // million); ten digits are the app's App Store ID (apps.apple.com/app/id…), docs/association-files.md §1.
        if prefix.count == 10 && prefix.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            report(
                .appStoreIDPrefix,
                "prefix \"\(String(decoding: prefix, as: UTF8.self))\" is ten digits, which looks like the app's App "
                    + "Store ID, not its team ID; use the App ID prefix from the app's application-identifier "
                    + "entitlement (letters and digits)",
                at: app.origin)
        } else if !isTeamStyle {
            // An error: Apple's app IDs always start with the 10-character team (App ID) prefix, so
            // any other one names no app and the link never opens it (docs/association-files.md §1).
            let prefixText = String(decoding: prefix, as: UTF8.self)
            let looksLikeBundle = prefix.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
            report(
                .unusualAppIDPrefix,
                looksLikeBundle
                    ? "\"\(text)\" has no team ID: write TEAMID.\(text), with the 10-character App ID prefix from "
                        + "the app's application-identifier entitlement"
                    : "prefix \"\(prefixText)\" is not a team ID (10 upper-case letters or digits); use the App ID "
                        + "prefix from the app's application-identifier entitlement",
                at: app.origin)
        }
    }

    func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
