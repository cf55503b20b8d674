import AASAFileCommands
import AASAProbe

/// What `probe` and `check-app` print: one checklist per domain (or app), an item a line.
enum ChecklistOutput {
    /// ```
    /// example.com
    ///   pass  tls: TLSv1.3, ALPN http/1.1
    ///   fail  certificate: not trusted for example.com: hostname mismatch
    ///   NOT READY: 1 failed, 0 warnings
    /// ```
    static func text(_ reports: [ProbeReport]) -> String {
        var out = ""
        for report in reports {
            out += "\(report.domain)\n"
            for item in report.items {
                let lines = item.detail.split(separator: "\n", omittingEmptySubsequences: false)
                out += "  \(item.outcome.rawValue.padding(to: 5)) \(item.name): \(lines.first ?? "")\n"
                for line in lines.dropFirst() where !line.isEmpty { out += "        \(line)\n" }
            }
            let failures = report.items.filter { $0.outcome == .fail }.count
            let warnings = report.items.filter { $0.outcome == .warn }.count
            out +=
                "  \(failures == 0 ? "ready" : "NOT READY"): \(failures) failed, "
                + "\(warnings) warning\(warnings == 1 ? "" : "s")\n"
        }
        return out
    }

    /// `{"passed": …, LIST: [{SUBJECT: …, "passed": …, "items": [{ITEM: …, "outcome", "detail"}]}]}`:
    /// `domains`/`domain`/`name` for probe, `apps`/`app`/`entry` for check-app.
    static func json(_ reports: [ProbeReport], list: String, subject: String, item: String) -> String {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct Item: Encodable {
            var nameKey: String
            var item: ProbeReport.Item
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(item.name, forKey: Key(nameKey))
                try container.encode(item.outcome.rawValue, forKey: Key("outcome"))
                try container.encode(item.detail, forKey: Key("detail"))
            }
        }
        struct Report: Encodable {
            var subjectKey, itemKey: String
            var report: ProbeReport
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(report.domain, forKey: Key(subjectKey))
                try container.encode(!report.failed, forKey: Key("passed"))
                try container.encode(report.items.map { Item(nameKey: itemKey, item: $0) }, forKey: Key("items"))
            }
        }
        struct Document: Encodable {
            var listKey, subjectKey, itemKey: String
            var reports: [ProbeReport]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(!reports.contains(where: \.failed), forKey: Key("passed"))
                try container.encode(
                    reports.map { Report(subjectKey: subjectKey, itemKey: itemKey, report: $0) }, forKey: Key(listKey))
            }
        }
        return JSONOutput.encode(Document(listKey: list, subjectKey: subject, itemKey: item, reports: reports)) + "\n"
    }
}
