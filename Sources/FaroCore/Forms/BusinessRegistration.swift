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
