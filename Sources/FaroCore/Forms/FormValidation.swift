/// A form field Faro validates; the raw value is the English name used in messages and JSON.
public enum FormField: String, Sendable, CaseIterable {
    case nombre, email, telefono, empresa, comentario
}

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

/// The validation rules of Faro's forms ("Mis datos de contacto", "Registrar mi negocio", "Enviar mis datos").
public enum FormRules {
    public static let maxNameLength = 100
    public static let maxEmailLength = 254
    public static let maxCompanyLength = 100
    public static let maxCommentLength = 1000

    /// A required name: trimmed, not empty, at most 100 characters.
    public static func name(_ raw: String, field: FormField = .nombre) -> Result<String, FieldProblem> {
        let value = trimmed(raw)
        if value.isEmpty { return .failure(FieldProblem(field: field, reason: .required)) }
        if value.count > maxNameLength {
            return .failure(FieldProblem(field: field, reason: .tooLong(limit: maxNameLength)))
        }
        return .success(value)
    }

    /// An e-mail address: one `@`, a non-empty local part, a dotted domain of letters, digits and dashes, no spaces.
    public static func email(_ raw: String) -> Result<String, FieldProblem> {
        let value = trimmed(raw)
        if value.isEmpty { return .failure(FieldProblem(field: .email, reason: .required)) }
        if value.count > maxEmailLength {
            return .failure(FieldProblem(field: .email, reason: .tooLong(limit: maxEmailLength)))
        }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, local.count <= 64,
            !value.contains(where: { $0.isWhitespace || $0.isNewline }),
            !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { return .failure(FieldProblem(field: .email, reason: .invalidEmail)) }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let labelsOK =
            labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }
        guard labelsOK, let tld = labels.last, tld.count >= 2, tld.allSatisfy(\.isLetter) else {
            return .failure(FieldProblem(field: .email, reason: .invalidEmail))
        }
        return .success(value)
    }

    /// A phone number of exactly 10 digits. Spaces, dashes, dots and parentheses the user typed are stripped.
    public static func phone(_ raw: String) -> Result<String, FieldProblem> {
        let value = trimmed(raw)
        if value.isEmpty { return .failure(FieldProblem(field: .telefono, reason: .required)) }
        var digits = ""
        for c in value {
            if let ascii = c.asciiValue, (0x30...0x39).contains(ascii) {
                digits.append(c)
            } else if c == " " || c == "-" || c == "(" || c == ")" || c == "." {
                continue
            } else {
                return .failure(FieldProblem(field: .telefono, reason: .phoneCharacters))
            }
        }
        guard digits.count == 10 else {
            return .failure(FieldProblem(field: .telefono, reason: .phoneDigits(count: digits.count)))
        }
        return .success(digits)
    }

    /// Optional free text (empresa, comentario): trimmed, may be empty, bounded.
    public static func optionalText(_ raw: String, field: FormField, limit: Int) -> Result<String, FieldProblem> {
        let value = trimmed(raw)
        if value.count > limit { return .failure(FieldProblem(field: field, reason: .tooLong(limit: limit))) }
        return .success(value)
    }

    static func trimmed(_ s: String) -> String {
        String(s.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}

/// "Mis datos de contacto": kept only on the device.
public struct ContactDetails: Equatable, Sendable {
    public var nombre: String
    public var email: String
    public var telefono: String
    public var empresa: String

    /// Validates every field; returns the cleaned details or every problem at once, so the form can mark each field.
    public static func validate(nombre: String, email: String, telefono: String, empresa: String)
        -> Result<ContactDetails, FormErrors>
    {
        var problems: [FieldProblem] = []
        let n = FormRules.name(nombre)
        let e = FormRules.email(email)
        let t = FormRules.phone(telefono)
        let c = FormRules.optionalText(empresa, field: .empresa, limit: FormRules.maxCompanyLength)
        for r in [n, e, t, c] { if case .failure(let p) = r { problems.append(p) } }
        guard problems.isEmpty, case .success(let nv) = n, case .success(let ev) = e, case .success(let tv) = t,
            case .success(let cv) = c
        else { return .failure(FormErrors(problems: problems)) }
        return .success(ContactDetails(nombre: nv, email: ev, telefono: tv, empresa: cv))
    }
}

extension ContactDetails {
    /// Details exactly as they were stored (they were validated when saved).
    public init(stored nombre: String, email: String, telefono: String, empresa: String) {
        self.init(nombre: nombre, email: email, telefono: telefono, empresa: empresa)
    }
}

/// "Registrar mi negocio": the row sent to the `interested` table.
public struct BusinessRegistration: Equatable, Sendable {
    public var nombre: String
    public var email: String
    public var telefono: String

    public static func validate(nombre: String, email: String, telefono: String)
        -> Result<BusinessRegistration, FormErrors>
    {
        var problems: [FieldProblem] = []
        let n = FormRules.name(nombre)
        let e = FormRules.email(email)
        let t = FormRules.phone(telefono)
        for r in [n, e, t] { if case .failure(let p) = r { problems.append(p) } }
        guard problems.isEmpty, case .success(let nv) = n, case .success(let ev) = e, case .success(let tv) = t
        else { return .failure(FormErrors(problems: problems)) }
        return .success(BusinessRegistration(nombre: nv, email: ev, telefono: tv))
    }
}

/// All the problems of one form submission, in field order.
public struct FormErrors: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [FieldProblem]

    public init(problems: [FieldProblem]) { self.problems = problems }

    public func problem(for field: FormField) -> FieldProblem? { problems.first { $0.field == field } }

    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
