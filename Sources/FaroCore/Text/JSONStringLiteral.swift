/// Faro's one JSON string escaper: every JSON text Faro writes (outbox rows, faro-backend's replies, the terminal's
/// `--json` output) quotes its strings here, so they are escaped alike everywhere.
public enum JSONString {
    /// `text` as a JSON string literal (RFC 8259 §7): the quotation mark, the backslash and the control characters
    /// below U+0020 escaped (`\n`, `\r`, `\t`, the others as `\u00xx` in lower-case hex), everything else written as
    /// itself, in UTF-8.
    public static func literal(_ text: String) -> String {
        // Most strings need no escape (names, ids, URLs): one copy between the quotes.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += (hex.count == 1 ? "\\u000" : "\\u00") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
