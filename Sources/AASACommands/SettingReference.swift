import AASAServer
import Foundation

/// docs/settings.md's settings reference, one table per group from the rows of `SettingGroup`,
/// printed by `serve --settings-reference` (`make settings-reference` puts it between the
/// markers in the docs; a test proves the docs hold exactly this).
enum SettingReference {
    static let begin = "<!-- settings reference: made by make settings-reference from SettingGroup's rows -->"
    static let end = "<!-- end of settings reference -->"

    static var markdown: String {
        SettingGroup.allCases.map { group in
            "### \(group.title)\n\n| flag | config key | environment | default | what |\n| --- | --- | --- | --- | --- |\n"
                + group.settings.map(row).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    static func row(_ setting: ServerConfiguration.Setting) -> String {
        let flag = "--" + setting.flag + (setting.form == .presence ? "" : " <\(setting.valueName)>")
        let repeatable = setting.form == .list ? " (repeatable)" : ""
        let cells = [
            "`\(flag)`\(repeatable)", "`\(setting.key)`", "`\(setting.environment)`", "`\(setting.defaultShown)`",
            setting.summary.replacingOccurrences(of: " (repeatable)", with: ""),
        ].map { $0.replacingOccurrences(of: "|", with: "\\|") }
        return "| " + cells.joined(separator: " | ") + " |"
    }
}
