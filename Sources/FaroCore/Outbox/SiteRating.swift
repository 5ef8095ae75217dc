/// "Calificar sitio": the payload of a `rateme` row (docs/forms.md), 0…5 stars from this device.
public struct SiteRating: Sendable, Equatable {
    public var site: SiteIdentity
    /// The device id sent with pages (docs/privacy.md).
    public var imei: String
    /// 0…5 (`OutboxSubmission.validRating`).
    public var calificacion: Int
    /// When the user rated (`Fechahora`).
    public var fechahora: String

    public init(site: SiteIdentity, imei: String, calificacion: Int, fechahora: String) {
        self.site = site
        self.imei = imei
        self.calificacion = calificacion
        self.fechahora = fechahora
    }

    /// The row's fields after its `id`, in the order sent (docs/backend.md).
    var fields: [(String, JSONValue)] {
        [
            ("cliente", .string(site.cliente)), ("titulo", .string(site.titulo)), ("fechahora", .string(fechahora)),
            ("imei", .string(imei)), ("calificacion", .integer(Int64(calificacion))),
        ]
    }
}
