import AASAServer

/// `serve --help`'s settings, group by group under their titles, from the rows of
/// `SettingGroup`, laid out as argument-parser lays out options (the man page takes the same
/// text).
enum SettingHelp {
    /// Below argument-parser's 80 columns, which would wrap a full line again.
    static let width = 78
    static let helpColumn = 30

    static var text: String {
        SettingGroup.allCases.map { group in
            group.title.uppercased() + ":\n" + group.settings.map(entry).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// `  --workers <n>               Event loops …`, the help wrapped under its column.
    static func entry(_ setting: ServerConfiguration.Setting) -> String {
        let label = "  --" + setting.flag + (setting.form == .presence ? "" : " <\(setting.valueName)>")
        let indent = String(repeating: " ", count: helpColumn)
        var lines: [String] = []
        var line = label.padding(toLength: helpColumn, withPad: " ", startingAt: 0)
        // A label too long for its column has the help on the lines below, as argument-parser does.
        if label.count + 2 > helpColumn {
            lines.append(label)
            line = indent
        }
        for word in setting.help.split(separator: " ") {
            if line.count > helpColumn && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            // A word too long for the column (a URL) moves left, so argument-parser leaves it whole.
            if line == indent && helpColumn + word.count > width {
                line = String(repeating: " ", count: max(0, width - word.count))
            }
            line += (line.count > helpColumn ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
