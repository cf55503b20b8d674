extension AssociationFileValidator {
    /// Checks a list of application identifiers: form, prefix, duplicates, emptiness.
    mutating func checkAppList(_ apps: [Located<String>], at origin: Origin, what: String) {
        var seen: Set<String> = []
        for app in apps {
            checkAppIdentifier(app)
            if !seen.insert(app.value).inserted {
                report(.duplicateAppID, "\(app.value) is listed twice", at: app.origin)
            }
        }
        if apps.isEmpty && what == "apps" {
            report(.emptyAppList, "the apps list is empty, so this service applies to no app", at: origin)
        }
    }

    /// `<Application Identifier Prefix>.<Bundle Identifier>` (A-ASD, A-DETAILS); bundle IDs use
    /// only letters, digits, hyphens and periods (A-GLOSS-BID).
    mutating func checkAppIdentifier(_ app: Located<String>) {
        let text = app.value
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
            report(.malformedAppID, "\"\(text)\" is not an application identifier; write <App ID prefix>.<bundle ID>, for example ABCDE12345.com.example.app", at: app.origin)
            return
        }
        let prefix = text[..<dot]
        let bundle = text[text.index(after: dot)...]
        let prefixIsAlphanumeric = prefix.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) }
        let bundleIsValid =
            bundle.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || $0 == "-" || $0 == "." }
            && !bundle.hasPrefix(".") && !bundle.hasSuffix(".") && !bundle.contains("..")
        guard prefixIsAlphanumeric && bundleIsValid else {
            let part = prefixIsAlphanumeric ? "bundle ID \"\(bundle)\" may use only letters, digits, hyphens and periods" : "prefix \"\(prefix)\" must be letters and digits"
            report(.malformedAppID, "\"\(text)\" is not an application identifier: the \(part)", at: app.origin)
            return
        }
        let isTeamStyle = prefix.count == 10 && prefix.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        if !isTeamStyle {
            report(
                .unusualAppIDPrefix,
                "prefix \"\(prefix)\" is not 10 upper-case letters or digits; use the App ID prefix from the app's application-identifier entitlement",
                at: app.origin)
        }
    }

    func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
