import FaroCore

/// The inline messages of a form, one per field that failed, already translated.
public struct FormMessages: Equatable, Sendable {
    public var byField: [FormField: String]

    public init(_ errors: FormErrors, localize: Localizer) {
        var byField: [FormField: String] = [:]
        for problem in errors.problems where byField[problem.field] == nil {
            byField[problem.field] = FormMessages.fill(localize(problem.msgid), problem.arguments)
        }
        self.byField = byField
    }

    /// A translated message with its `%@` placeholders filled in order.
    public static func fill(_ text: String, _ arguments: [String]) -> String {
        var text = text
        for argument in arguments {
            if let range = text.firstRange(of: "%@") { text.replaceSubrange(range, with: argument) }
        }
        return text
    }

    /// Messages given directly (a storage failure, say), already translated.
    public init(byField: [FormField: String]) { self.byField = byField }

    public subscript(field: FormField) -> String? { byField[field] }
}

/// The disclaimer under the contact fields (docs/forms.md); its Spanish translation is the customer's text verbatim.
public let contactDisclaimerMsgid =
    "*Your details are stored on your device and shared with the authors of the sites you choose, so that they can get in touch with you."
