import AASAACME
import AASALoop
import AASASites
import AASATransport
import AssociationKit
import Foundation

extension ServerConfiguration {
    /// The keys a config file may have, for the error about any other.
    static var knownKeys: String {
        (Setting.all.map(\.key) + ["acmeIssuers", "timeouts", "limits"]).joined(separator: ", ")
    }

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Applies one setting given as text (a flag's, a variable's or a config key's), naming
    /// `source` in a problem.
    public mutating func apply(_ setting: Setting, _ value: String, source: String) throws(Problem) {
        do { try setting.store(&self, value) } catch { throw Problem(description: "\(source): \(error.description)") }
    }

    /// Reads `AASA_*` variables.
    public mutating func applyEnvironment(_ environment: [String: String]) throws(Problem) {
        for setting in Setting.all {
            if let value = environment[setting.environment] { try apply(setting, value, source: setting.environment) }
        }
    }

    /// Reads a JSON config file with the strict JSON reader. Unknown keys are errors: a
    /// misspelt setting must not be silently ignored. Relative paths in the file are relative
    /// to the file's own folder.
    public mutating func applyFile(at path: String) throws(Problem) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "\(path): cannot read the config file")
        }
        try applyFile(contents: [UInt8](data), path: path)
    }

    /// The same for a config file's bytes, read from `path`.
    public mutating func applyFile(contents: [UInt8], path: String) throws(Problem) {
        let document = JSONDocument.parse(contents)
        guard let root = document.root, let members = root.members else {
            let lines = DiagnosticLines.render(document.diagnostics, path: path)
            throw Problem(
                description: lines.isEmpty
                    ? "\(path): the config file must hold a JSON object" : String(lines.dropLast()))
        }
        let folder = (path as NSString).deletingLastPathComponent
        for member in members {
            let place = "\(path):\(member.keyLocation.line):\(member.keyLocation.column)"
            switch member.key {
            case "timeouts": try applyTimeouts(member.value, place: place)
            case "limits": try applyLimits(member.value, place: place)
            case "acmeIssuers": try applyIssuers(member.value, place: place, folder: folder)
            default:
                guard let setting = Setting.named(member.key) else {
                    throw Problem(description: "\(place): unknown setting \"\(member.key)\" (known: \(Self.knownKeys))")
                }
                let text: String
                switch member.value.kind {
                case .string(let value): text = value
                case .bool(let value): text = value ? "on" : "off"
                case .number(_, let literal): text = literal
                // null turns a switch or a listener off, and clears a list or an optional value.
                case .null: text = setting.cleared
                case .array(let items) where setting.form == .list:
                    text = try strings(items, place: place).joined(separator: ",")
                default: throw Problem(description: "\(place): \(member.key) must be a string, number or boolean")
                }
                let resolved =
                    // A URI (`store`'s postgres://) is no path.
                    setting.isPath && !text.isEmpty && !text.hasPrefix("/") && !text.contains("://")
                    ? (folder as NSString).appendingPathComponent(text) : text
                try apply(setting, resolved, source: place)
            }
        }
    }

    /// `acmeIssuers`: a list of objects with `directory` (https), `ca`, `eabKid`,
    /// `eabHmacKeyFile` and `profile` (docs/acme.md, "Issuers in order"); null clears the list.
    /// Files are relative to the config file's folder.
    private mutating func applyIssuers(_ value: JSONValue, place: String, folder: String) throws(Problem) {
        if case .null = value.kind {
            acme.issuerList = nil
            return
        }
        guard case .array(let items) = value.kind, !items.isEmpty else {
            throw Problem(description: "\(place): acmeIssuers must be a list of issuer objects")
        }
        var issuers: [ACMEIssuerSettings] = []
        for (index, item) in items.enumerated() {
            guard let members = item.members else {
                throw Problem(description: "\(place): acmeIssuers[\(index)] must be an object")
            }
            var fields: [String: String] = [:]
            for member in members {
                guard ["directory", "ca", "eabKid", "eabHmacKeyFile", "profile"].contains(member.key) else {
                    throw Problem(
                        description: "\(place): acmeIssuers[\(index)]: unknown key \"\(member.key)\" "
                            + "(known: directory, ca, eabKid, eabHmacKeyFile, profile)")
                }
                guard case .string(let text) = member.value.kind, !text.isEmpty else {
                    throw Problem(description: "\(place): acmeIssuers[\(index)].\(member.key) must be a string")
                }
                let isFile = member.key == "ca" || member.key == "eabHmacKeyFile"
                fields[member.key] =
                    isFile && !text.hasPrefix("/") ? (folder as NSString).appendingPathComponent(text) : text
            }
            guard let directory = fields["directory"] else {
                throw Problem(description: "\(place): acmeIssuers[\(index)] needs a directory")
            }
            let issuer = ACMEIssuerSettings(
                directory: directory, ca: fields["ca"], eabKid: fields["eabKid"],
                eabHmacKeyFile: fields["eabHmacKeyFile"], profile: fields["profile"])
            if let problem = issuer.problem {
                throw Problem(description: "\(place): acmeIssuers[\(index)]: \(problem)")
            }
            issuers.append(issuer)
        }
        acme.issuerList = issuers
    }

    /// The config file's `timeouts` and `limits`, which have no flag or variable.
    private static let timeoutFields: [(key: String, field: WritableKeyPath<ServerConfiguration, Double> & Sendable)] =
        [
            ("handshake", \.timeouts.handshake), ("requestHead", \.timeouts.requestHead),
            ("keepAlive", \.timeouts.keepAlive), ("write", \.timeouts.write), ("shutdown", \.timeouts.shutdown),
            ("cdnFetch", \.cdnWatch.fetchTimeout), ("googleFetch", \.googleWatch.fetchTimeout),
        ]
    private static let limitFields: [(key: String, field: WritableKeyPath<HTTPLimits, Int> & Sendable)] = [
        ("requestLineBytes", \.requestLineBytes), ("headerBytes", \.headerBytes), ("headerCount", \.headerCount),
    ]

    private mutating func applyTimeouts(_ value: JSONValue, place: String) throws(Problem) {
        for (key, number) in try numbers(value, place: place) {
            guard number > 0 && number <= 3600 else {
                throw Problem(description: "\(place): timeouts.\(key) must be between 0 and 3600 seconds")
            }
            guard let field = Self.timeoutFields.first(where: { $0.key == key })?.field else {
                let known = Self.timeoutFields.map(\.key).joined(separator: ", ")
                throw Problem(description: "\(place): unknown timeout \"\(key)\" (known: \(known))")
            }
            self[keyPath: field] = number
        }
    }

    private mutating func applyLimits(_ value: JSONValue, place: String) throws(Problem) {
        for (key, number) in try numbers(value, place: place) {
            guard number >= 1 && number <= 1_048_576 && number == number.rounded() else {
                throw Problem(description: "\(place): limits.\(key) must be a whole number from 1 to 1048576")
            }
            guard let field = Self.limitFields.first(where: { $0.key == key })?.field else {
                let known = Self.limitFields.map(\.key).joined(separator: ", ")
                throw Problem(description: "\(place): unknown limit \"\(key)\" (known: \(known))")
            }
            limits[keyPath: field] = Int(number)
        }
    }

    private func strings(_ items: [JSONValue], place: String) throws(Problem) -> [String] {
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item.kind else {
                throw Problem(description: "\(place): must be a list of strings")
            }
            result.append(text)
        }
        return result
    }

    private func numbers(_ value: JSONValue, place: String) throws(Problem) -> [(String, Double)] {
        guard let members = value.members else { throw Problem(description: "\(place): must be an object of numbers") }
        var result: [(String, Double)] = []
        for member in members {
            guard case .number(let number, _) = member.value.kind else {
                throw Problem(description: "\(place): \(member.key) must be a number")
            }
            result.append((member.key, number))
        }
        return result
    }
}
