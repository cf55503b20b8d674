/// `aasa_reloads_total{result="…"}` from the Prometheus text of `/metrics`, and what changed
/// between two readings (docs/admin.md, "Admin listener").
enum ReloadCounts {
    static let results = ["ok", "partial", "failed"]

    static func parse(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            for result in results {
                let prefix = "aasa_reloads_total{result=\"\(result)\"} "
                if line.hasPrefix(prefix) { counts[result] = Int(line.dropFirst(prefix.count)) }
            }
        }
        return counts
    }

    /// The worst result counted since `before` (a file change may have reloaded as well),
    /// nil while none was.
    static func outcome(before: [String: Int], after: [String: Int]) -> String? {
        results.reversed().first { (after[$0] ?? 0) > (before[$0] ?? 0) }
    }
}
