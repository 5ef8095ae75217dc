/// One row for the backend, before it enters the outbox: which table, and the fields docs/forms.md
/// name, exactly as the backend expects them.
public enum OutboxSubmission: Sendable, Equatable {
    /// "Registrar mi negocio" → `interested {id, nombre, email, telefono}`.
    case interested(BusinessRegistration)
    /// "Enviar mis datos" → `contactame {id, cliente, titulo, fechahora, nombrecontacto, email, telefono, empresa,
    /// comentario}`.
    case contactame(ContactRequest)
    /// "Calificar sitio" → `rateme {id, cliente, titulo, fechahora, imei, calificacion}` with calificacion 0…5.
    case rateme(SiteRating)

    /// The table the row goes to.
    public var table: OutboxTable {
        switch self {
        case .interested: return .interested
        case .contactame: return .contactame
        case .rateme: return .rateme
        }
    }

    /// Rows with the same key are delivered in the order they were committed (rows about one site: its contact
    /// request before its rating); rows without a key wait for nobody. The key is the site's `cliente` and
    /// `titulo` as the row carries them (what a stored row's body says too: see `orderKey(cliente:titulo:)`).
    public var orderKey: String? {
        switch self {
        case .interested: return nil
        case .contactame(let request):
            return OutboxSubmission.orderKey(cliente: request.site.cliente, titulo: request.site.titulo)
        case .rateme(let rating):
            return OutboxSubmission.orderKey(cliente: rating.site.cliente, titulo: rating.site.titulo)
        }
    }

    /// The order key of a row about the site (`cliente`, `titulo`): both joined by U+001F (unit separator).
    public static func orderKey(cliente: String, titulo: String) -> String { cliente + "\u{1F}" + titulo }

    /// The JSON object sent to the backend, with the row's client-generated `id` first.
    public func jsonBody(id: String) -> String {
        var fields: [(String, JSONValue)] = [("id", .string(id))]
        switch self {
        case .interested(let r):
            fields += [("nombre", .string(r.nombre)), ("email", .string(r.email)), ("telefono", .string(r.telefono))]
        case .contactame(let r): fields += r.fields
        case .rateme(let r): fields += r.fields
        }
        return JSONValue.object(fields).serialized
    }

    /// A rating as the form allows it: an integer from 0 to 5.
    public static func validRating(_ value: Int) -> Bool { (0...5).contains(value) }
}

/// The business and page a contact request or rating is about (the catalog's `cliente` and `titulo`), plus the
/// microsite URL that identifies the site for the "sent"/"rated" flags.
public struct SiteIdentity: Sendable, Equatable {
    public var cliente: String
    public var titulo: String
    public var url: String

    public init(cliente: String, titulo: String, url: String) {
        self.cliente = cliente
        self.titulo = titulo
        self.url = url
    }
}
