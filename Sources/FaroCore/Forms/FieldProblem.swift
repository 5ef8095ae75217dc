/// Why a field's value was refused. The UI translates `message` (an English gettext msgid).
public struct FieldProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case required
        case tooLong(limit: Int)
        case invalidEmail
        case phoneDigits(count: Int)
        case phoneCharacters
    }

    public var field: FormField
    public var reason: Reason

    public init(field: FormField, reason: Reason) {
        self.field = field
        self.reason = reason
    }

    /// The gettext message id: English, with `%@` where `arguments` go.
    public var msgid: String {
        switch reason {
        case .required: return "This field is required."
        case .tooLong: return "Use at most %@ characters."
        case .invalidEmail: return "Enter an e-mail address like nombre@ejemplo.com."
        case .phoneDigits: return "The phone number needs exactly 10 digits (this one has %@)."
        case .phoneCharacters: return "Use only digits, spaces, dashes and parentheses."
        }
    }

    /// What fills the `%@` of `msgid`, in order.
    public var arguments: [String] {
        switch reason {
        case .tooLong(let limit): return [String(limit)]
        case .phoneDigits(let count): return [String(count)]
        case .required, .invalidEmail, .phoneCharacters: return []
        }
    }

    /// The English message with its arguments filled in.
    public var message: String {
        var text = msgid
        for argument in arguments {
            if let range = text.firstRange(of: "%@") { text.replaceSubrange(range, with: argument) }
        }
        return text
    }

    public var description: String { "\(field.rawValue): \(message)" }
}
