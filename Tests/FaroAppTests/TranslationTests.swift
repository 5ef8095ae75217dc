import Foundation
import Testing

/// The Spanish translation is complete: every message the UI can show has a non-empty msgstr in po/es.po, and the
/// customer's own strings are exactly theirs.
@Suite("Translations")
struct TranslationTests {
    static let root = #filePath.components(separatedBy: "/Tests/")[0]

    /// msgid → msgstr of a .po file (single-line entries, as Faro's are written).
    static func catalog(_ path: String) throws -> [String: String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var result: [String: String] = [:]
        // A message's text may go on over lines of their own ("…"), as msgmerge wraps long ones.
        var msgid: String?
        var msgstr: String?
        func finish() {
            if let id = msgid, let str = msgstr { result[id] = str }
            msgid = nil
            msgstr = nil
        }
        for line in text.split(separator: "\n") {
            if line.hasPrefix("msgid \"") {
                finish()
                msgid = unquote(line.dropFirst(6))
            } else if line.hasPrefix("msgstr \""), msgid != nil {
                msgstr = unquote(line.dropFirst(7))
            } else if line.hasPrefix("\"") {
                if msgstr != nil { msgstr! += unquote(line) } else if msgid != nil { msgid! += unquote(line) }
            } else {
                finish()
            }
        }
        finish()
        return result
    }

    static func unquote(_ s: Substring) -> String {
        String(s.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(
            of: "\\n", with: "\n")
    }

    /// Every message id the sources pass to gettext: `I18n.tr("…")`, `localize("…")`, `localize.format("…")`, the
    /// form rules' msgids and the named msgid constants.
    static func sourceMessages() throws -> Set<String> {
        var ids = Set<String>()
        let fm = FileManager.default
        let pattern = try NSRegularExpression(pattern: #"(?:I18n\.tr|localize|localize\.format)\("((?:[^"\\]|\\.)*)""#)
        let constant = try NSRegularExpression(pattern: #"Msgid\s*=\s*\n?\s*"((?:[^"\\]|\\.)*)""#)
        let rule = try NSRegularExpression(pattern: #"case \.\w+(?:\(.*\))?: return "((?:[^"\\]|\\.)*)""#)
        for folder in ["Sources/FaroUI", "Sources/FaroApp", "Sources/FaroCore/Forms"] {
            guard let files = fm.enumerator(atPath: root + "/" + folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + folder + "/" + file, encoding: .utf8)
                let range = NSRange(text.startIndex..., in: text)
                var regexes = [pattern, constant]
                if folder.hasSuffix("Forms") { regexes = [rule] }
                for regex in regexes {
                    for match in regex.matches(in: text, range: range) {
                        if let r = Range(match.range(at: 1), in: text) { ids.insert(String(text[r])) }
                    }
                }
            }
        }
        // The GtkBuilder views: every property or menu attribute marked translatable.
        let translatable = try NSRegularExpression(pattern: #"translatable="yes"[^>]*>([^<]*)<"#)
        if let views = fm.enumerator(atPath: root + "/Resources/ui") {
            for case let file as String in views where file.hasSuffix(".ui") {
                let text = try String(contentsOfFile: root + "/Resources/ui/" + file, encoding: .utf8)
                let range = NSRange(text.startIndex..., in: text)
                for match in translatable.matches(in: text, range: range) {
                    if let r = Range(match.range(at: 1), in: text) {
                        ids.insert(Self.unescapeXML(String(text[r])))
                    }
                }
            }
        }
        return ids
    }

    /// A .ui file's text as gettext reads it: XML's five entities replaced, `&amp;` last.
    static func unescapeXML(_ text: String) -> String {
        [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")].reduce(text) {
            $0.replacingOccurrences(of: $1.0, with: $1.1)
        }
    }

    @Test func everyMessageHasASpanishTranslation() throws {
        let spanish = try Self.catalog(Self.root + "/po/es.po")
        let messages = try Self.sourceMessages()
        #expect(messages.count > 40)
        let missing = messages.filter { (spanish[$0] ?? "").isEmpty }.sorted()
        #expect(missing.isEmpty, "untranslated: \(missing)")
        // Placeholders survive translation.
        for id in messages where id.contains("%@") {
            #expect(spanish[id]?.components(separatedBy: "%@").count == id.components(separatedBy: "%@").count)
        }
    }

    @Test func theCustomersWordsAreVerbatim() throws {
        let spanish = try Self.catalog(Self.root + "/po/es.po")
        #expect(spanish["Register my business"] == "Registrar mi negocio")
        #expect(spanish["My contact details"] == "Mis datos de contacto")
        #expect(
            spanish.values.contains(
                "*Tus datos serán almacenados en tú dispositivo y serán compartidos con los autores de los sitios que tú "
                    + "decidas con el propósito de que puedan comunicarse contigo."))
    }
}
