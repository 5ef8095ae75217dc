/// Word wrapping for help texts: paragraphs and two-column option tables that fit a terminal's width.
enum TextWrap {
    /// `text` in lines of at most `width` columns (a longer word gets a line of its own), each indented by `indent`.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, pad.count + line.count + 1 + word.count > width {
                lines.append(pad + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(pad + line) }
        return lines
    }

    /// Options as a table: the form in the left column, the text wrapped to its right (under it when the form is
    /// too wide for the column).
    static func table(_ rows: [OptionHelp], width: Int) -> [String] {
        let column = min(26, (rows.map(\.form.count).max() ?? 0) + 4)
        var lines: [String] = []
        for row in rows {
            let head = "  " + row.form
            let body = wrap(row.text, width: width, indent: column)
            if head.count + 2 <= column {
                let first = body[0].dropFirst(column)
                lines.append(head + String(repeating: " ", count: column - head.count) + first)
                lines += body.dropFirst()
            } else {
                lines.append(head)
                lines += body
            }
        }
        return lines
    }
}
