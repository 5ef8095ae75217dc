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
