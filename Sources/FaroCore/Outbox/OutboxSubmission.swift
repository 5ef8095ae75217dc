/// One row for the backend, before it enters the outbox: which table, and the fields docs/forms.md
/// name, exactly as the backend expects them.
public enum OutboxSubmission: Sendable, Equatable {
    /// "Registrar mi negocio" → `interested {id, nombre, email, telefono}`.
    case interested(BusinessRegistration)
    /// "Enviar mis datos" → `contactame {id, cliente, titulo, fechahora, nombrecontacto, email, telefono, empresa,
    /// comentario}`.
    case contactame(site: SiteIdentity, contact: ContactDetails, comentario: String, fechahora: String)
    /// "Calificar sitio" → `rateme {id, cliente, titulo, fechahora, imei, calificacion}` with calificacion 0…5.
    case rateme(site: SiteIdentity, imei: String, calificacion: Int, fechahora: String)

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
        case .contactame(let site, _, _, _), .rateme(let site, _, _, _):
            return OutboxSubmission.orderKey(cliente: site.cliente, titulo: site.titulo)
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
        case .contactame(let site, let c, let comentario, let fechahora):
            fields += [
                ("cliente", .string(site.cliente)), ("titulo", .string(site.titulo)), ("fechahora", .string(fechahora)),
                ("nombrecontacto", .string(c.nombre)), ("email", .string(c.email)), ("telefono", .string(c.telefono)),
                ("empresa", .string(c.empresa)), ("comentario", .string(comentario)),
            ]
        case .rateme(let site, let imei, let calificacion, let fechahora):
            fields += [
                ("cliente", .string(site.cliente)), ("titulo", .string(site.titulo)), ("fechahora", .string(fechahora)),
                ("imei", .string(imei)), ("calificacion", .integer(Int64(calificacion))),
            ]
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
