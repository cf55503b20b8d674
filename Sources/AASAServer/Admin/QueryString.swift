import Foundation

/// `application/x-www-form-urlencoded` query values (the URL tester's form).
enum QueryString {
    static func value(of name: String, in query: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.first.map(String.init) == name else { continue }
            let raw = parts.count > 1 ? String(parts[1]) : ""
            return (raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw)
                .trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
