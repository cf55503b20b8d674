import AASAACME
import AASALoop
import AASASites
import AASATransport
import AssociationKit
import Foundation

extension ServerConfiguration {
    /// The keys a config file may have, for the error about any other: a dotted setting's
    /// object once (`limits`).
    static var knownKeys: String {
        var seen: Set<Substring> = []
        return Setting.all.compactMap { setting -> Substring? in
            let name = setting.key.prefix { $0 != "." }
            return seen.insert(name).inserted ? name : nil
        }.joined(separator: ", ")
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
            let rows = Setting.members(of: member.key)
            guard Setting.named(member.key) == nil, !rows.isEmpty else {
                try applyMember(member, key: member.key, place: place, folder: folder)
                continue
            }
            // An object of dotted settings: `{"limits": {"headerBytes": 8192}}`.
            guard let inner = member.value.members else {
                throw Problem(description: "\(place): \(member.key) must be an object of \(Self.names(rows))")
            }
            for item in inner {
                let itemPlace = "\(path):\(item.keyLocation.line):\(item.keyLocation.column)"
                let key = member.key + "." + item.key
                guard Setting.named(key) != nil else {
                    throw Problem(description: "\(itemPlace): unknown setting \"\(key)\" (known: \(Self.names(rows)))")
                }
                try applyMember(item, key: key, place: itemPlace, folder: folder)
            }
        }
    }

    private static func names(_ rows: [Setting]) -> String { rows.map(\.key).joined(separator: ", ") }

    /// One config file member, `key` its setting's (dotted, inside an object).
    private mutating func applyMember(
        _ member: JSONMember, key: String, place: String, folder: String
    ) throws(Problem) {
        guard let setting = Setting.named(key) else {
            throw Problem(description: "\(place): unknown setting \"\(key)\" (known: \(Self.knownKeys))")
        }
        if let storeDocument = setting.storeDocument {
            do { try storeDocument(&self, member.value, folder) } catch {
                throw Problem(description: "\(place): \(error.description)")
            }
            return
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
        default: throw Problem(description: "\(place): \(key) must be a string, number or boolean")
        }
        let resolved =
            // A URI (`store`'s postgres://) is no path.
            setting.isPath && !text.isEmpty && !text.hasPrefix("/") && !text.contains("://")
            ? (folder as NSString).appendingPathComponent(text) : text
        try apply(setting, resolved, source: place)
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
}
