/// Tables for `--help` discussions, wrapped by hand: argument-parser wraps a discussion line that
/// is too long at column 0, which breaks a table's second column (and the man page, which
/// `scripts/man` builds from the same rows).
enum HelpText {
    /// The width every help line fits on a terminal of 80 columns: argument-parser wraps a line
    /// of all 80 again (it keeps the last column free), so 79.
    static let width = 79

    /// `rows` as `  NAME  text` lines, the texts in one column, each wrapped at `width` with its
    /// continuation lines indented to that column.
    static func table(_ rows: [(name: String, text: String)]) -> String {
        let column = 2 + (rows.map(\.name.count).max() ?? 0) + 2
        return rows.map { row in
            let head = "  " + row.name + String(repeating: " ", count: column - 2 - row.name.count)
            return head + wrap(row.text, width: width - column, indent: String(repeating: " ", count: column))
        }.joined(separator: "\n")
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word stays
    /// whole), every line after the first starting with `indent`.
    static func wrap(_ text: String, width: Int, indent: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + indent)
    }
}
