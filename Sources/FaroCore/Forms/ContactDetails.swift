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
