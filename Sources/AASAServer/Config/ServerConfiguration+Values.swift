import AASAACME
import AASALoop
import Foundation

/// The readers of `SettingValue` that take more than one check: switches and lists.
extension ServerConfiguration {
    /// A switch's value: on/true or off/false (a config file's booleans arrive as on/off).
    static func onOff(_ value: String, _ problem: @autoclosure () -> String) throws(Problem) -> Bool {
        guard let flag = ["on": true, "true": true, "off": false, "false": false][value] else {
            throw Problem(description: problem())
        }
        return flag
    }

    /// A comma-separated list of DNS names (RFC 1123 §2.1 letters, digits, hyphens and dots),
    /// lower-cased, a trailing dot removed; empty means none.
    static func hostNames(_ value: String) throws(Problem) -> [String] {
        var names: [String] = []
        for part in value.split(separator: ",") {
            var name = part.trimmingCharacters(in: .whitespaces)
            if name.hasSuffix(".") { name.removeLast() }
            // Checked before lower-casing: some non-ASCII letters lower-case to ASCII ones.
            let allowed = name.utf8.allSatisfy { byte in
                HTTPToken.lower(byte) >= UInt8(ascii: "a") && HTTPToken.lower(byte) <= UInt8(ascii: "z")
                    || HTTPToken.isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
            name = name.lowercased()
            guard !name.isEmpty, name.utf8.count <= 253, allowed else {
                throw Problem(description: "admin host names are DNS names without a port (got \"\(part)\")")
            }
            names.append(name)
        }
        return names
    }

    /// A comma-separated list of on-demand name patterns (`OnDemandNamePattern`).
    static func onDemandNames(_ value: String) throws(Problem) -> [OnDemandNamePattern] {
        var patterns: [OnDemandNamePattern] = []
        for part in value.split(separator: ",") {
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let pattern = OnDemandNamePattern(text) else {
                throw Problem(
                    description: "\"\(text)\" is no on-demand name pattern: dot-separated labels of letters, digits, "
                        + "hyphens and *, which matches within one label (pr-*.staging.example.com)")
            }
            patterns.append(pattern)
        }
        return patterns
    }
}
