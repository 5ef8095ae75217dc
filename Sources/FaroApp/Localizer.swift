/// Translates an English message id into the user's language. The GTK layer passes gettext (and ngettext for
/// plurals); tests pass a table. View models never call gettext themselves, so they stay pure and testable.
public struct Localizer: Sendable {
    private let translate: @Sendable (String) -> String
    private let translatePlural: @Sendable (String, String, Int) -> String

    /// `plural` picks and translates the form for a count (gettext's `ngettext`); without one, the English rule
    /// picks (1 is singular) and `translate` translates the msgid it picked.
    public init(
        _ translate: @escaping @Sendable (String) -> String,
        plural: (@Sendable (String, String, Int) -> String)? = nil
    ) {
        self.translate = translate
        self.translatePlural = plural ?? { one, many, n in translate(n == 1 ? one : many) }
    }

    /// English, untranslated.
    public static let english = Localizer { $0 }

    public func callAsFunction(_ msgid: String) -> String { translate(msgid) }

    /// Translates a message with `%@`-style placeholders filled in order (the translation may not reorder them).
    public func format(_ msgid: String, _ arguments: String...) -> String {
        fill(translate(msgid), arguments)
    }

    /// A counted message, "%@ star" / "%@ stars": the language's form for `count` (Spanish and English have two,
    /// other languages more, as the catalog's `Plural-Forms` says), with the first `%@` replaced by the count and
    /// later ones by `arguments`.
    public func plural(_ singular: String, _ plural: String, _ count: Int, _ arguments: String...) -> String {
        fill(translatePlural(singular, plural, count), [String(count)] + arguments)
    }

    private func fill(_ template: String, _ arguments: [String]) -> String {
        var text = template
        var searchFrom = text.startIndex
        for argument in arguments {
            guard let range = text[searchFrom...].firstRange(of: "%@") else { break }
            text.replaceSubrange(range, with: argument)
            searchFrom = text.index(range.lowerBound, offsetBy: argument.count)
        }
        return text
    }
}
