/// Translates an English message id into the user's language. The GTK layer passes gettext; tests pass a table.
/// View models never call gettext themselves, so they stay pure and testable.
public struct Localizer: Sendable {
    private let translate: @Sendable (String) -> String

    public init(_ translate: @escaping @Sendable (String) -> String) { self.translate = translate }

    /// English, untranslated.
    public static let english = Localizer { $0 }

    public func callAsFunction(_ msgid: String) -> String { translate(msgid) }

    /// Translates a message with `%@`-style placeholders filled in order (the translation may not reorder them).
    public func format(_ msgid: String, _ arguments: String...) -> String {
        var text = translate(msgid)
        for argument in arguments {
            guard let range = text.firstRange(of: "%@") else { break }
            text.replaceSubrange(range, with: argument)
        }
        return text
    }
}
