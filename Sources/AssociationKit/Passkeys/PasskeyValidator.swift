/// Reads and checks the two passkey files, `webauthn` and `passkey-endpoints`, each finding with
/// a `WAN0xx` code, a position and a pointer (docs/association-files.md, "Passkeys"). The Public
/// Suffix List comes from the caller: this layer reads no file.
public struct PasskeyValidator {
    var diagnostics: [Diagnostic] = []

    public struct Report<File: Sendable>: Sendable {
        public var file: File?
        /// At most `OmittedDiagnostics.limit` of them; the rest are counted in `omitted`.
        public var diagnostics: [Diagnostic]
        public var omitted: OmittedDiagnostics
        public var isValid: Bool { file != nil && !diagnostics.hasErrors && omitted.errors == 0 }
    }

    /// Checks a `webauthn` file; its origins' labels are counted with `suffixes`, or, when the
    /// list could not be read, not counted and said so (WAN009), never guessed.
    public static func validateWebAuthn(
        _ bytes: [UInt8], suffixes: Result<PublicSuffixList, PublicSuffixList.Unavailable>
    ) -> Report<WebAuthnFile> {
        check(bytes) { validator, root in validator.readWebAuthn(root, suffixes: suffixes) }
    }

    public static func validateEndpoints(_ bytes: [UInt8]) -> Report<PasskeyEndpoints> {
        check(bytes) { validator, root in validator.readEndpoints(root) }
    }

    static func check<File>(
        _ bytes: [UInt8], read: (inout PasskeyValidator, JSONValue) -> File?
    ) -> Report<File> {
        var validator = PasskeyValidator()
        if bytes.count > AssociationFileValidator.maximumSize {
            validator.diagnostics.append(
                Diagnostic(
                    .fileTooLarge,
                    "the file is \(bytes.count) bytes; keep well-known files under 128 KiB (131072 bytes)",
                    at: .start, pointer: ""))
        }
        let document = JSONDocument.parse(bytes)
        validator.diagnostics += document.diagnostics
        guard let root = document.recoveredRoot else {
            let (kept, omitted) = validator.diagnostics.limited(resolvingPointersIn: nil)
            return Report(file: nil, diagnostics: kept, omitted: omitted)
        }
        let file = read(&validator, root)
        let (kept, omitted) = validator.diagnostics.limited(resolvingPointersIn: root)
        return Report(file: document.root == nil ? nil : file, diagnostics: kept, omitted: omitted)
    }

    /// The members of the top-level object, unknown keys warned; nil (and WAN001) when it is none.
    mutating func members(of root: JSONValue, file: String, known: [String]) -> [JSONMember]? {
        guard let members = root.members else {
            report(.passkeyNotObject, "\(file) must be a JSON object, found \(root.typeName)", at: root)
            return nil
        }
        for member in members where !known.contains(member.key) {
            var message = "unknown key \"\(member.key)\" in \(file); browsers ignore it"
            if let suggestion = Spelling.closest(to: member.key, among: known) {
                message += ". Did you mean \"\(suggestion)\"?"
            }
            diagnostics.append(
                Diagnostic(.passkeyUnknownKey, message, at: member.keyLocation, valueAt: member.value.range.lowerBound))
        }
        return members
    }

    mutating func readEndpoints(_ root: JSONValue) -> PasskeyEndpoints? {
        guard members(of: root, file: PasskeyEndpoints.fileName, known: ["enroll", "manage"]) != nil else {
            return nil
        }
        var file = PasskeyEndpoints()
        file.enroll = root["enroll"].flatMap { readEndpoint($0, name: "enroll") }
        file.manage = root["manage"].flatMap { readEndpoint($0, name: "manage") }
        if root["enroll"] == nil && root["manage"] == nil {
            report(
                .passkeyEndpointsEmpty,
                "passkey-endpoints names neither \"enroll\" nor \"manage\", so it tells password managers nothing",
                at: root)
        }
        return file
    }

    mutating func readEndpoint(_ value: JSONValue, name: String) -> Located<String>? {
        guard let url = value.stringValue else {
            report(.passkeyWrongType, "\(name) must be a URL string, found \(value.typeName)", at: value)
            return nil
        }
        guard let parts = URLParts(url), parts.scheme == "https", !parts.isIPLiteral, !url.contains("@") else {
            report(
                .passkeyEndpointInvalidURL,
                "\(name) must be an absolute https:// URL (a page of this relying party), found \"\(url)\"", at: value)
            return nil
        }
        return Located(url, Origin(value))
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, at value: JSONValue) {
        diagnostics.append(Diagnostic(code, message, at: value))
    }
}
