/// "Enviar mis datos": the payload of a `contactame` row (docs/forms.md), the site it is about and the contact
/// details the user keeps on this device.
public struct ContactRequest: Sendable, Equatable {
    public var site: SiteIdentity
    public var contact: ContactDetails
    public var comentario: String
    /// When the user sent it (`Fechahora`).
    public var fechahora: String

    public init(site: SiteIdentity, contact: ContactDetails, comentario: String, fechahora: String) {
        self.site = site
        self.contact = contact
        self.comentario = comentario
        self.fechahora = fechahora
    }

    /// The row's fields after its `id`, in the order sent (docs/backend.md).
    var fields: [(String, JSONValue)] {
        [
            ("cliente", .string(site.cliente)), ("titulo", .string(site.titulo)), ("fechahora", .string(fechahora)),
            ("nombrecontacto", .string(contact.nombre)), ("email", .string(contact.email)),
            ("telefono", .string(contact.telefono)), ("empresa", .string(contact.empresa)),
            ("comentario", .string(comentario)),
        ]
    }
}
