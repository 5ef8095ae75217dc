import FaroCore

/// The one place that turns what the user did into backend rows (docs/forms.md): the table, the fields
/// and `fechahora` from the injected clock. The forms, the content view and `faro register` all come through here.
public enum OutboxRows {
    /// "Registrar mi negocio" → `interested`.
    public static func registration(_ registration: BusinessRegistration) -> OutboxSubmission {
        .interested(registration)
    }

    /// "Enviar mis datos" → `contactame`, stamped with `time` (seconds since 1970).
    public static func contactRequest(
        to place: CatalogPlace, contact: ContactDetails, comentario: String, at time: Double
    ) -> OutboxSubmission {
        .contactame(
            ContactRequest(
                site: site(place), contact: contact, comentario: comentario,
                fechahora: Fechahora.format(secondsSince1970: time)))
    }

    /// "Calificar sitio" → `rateme` with the device id that is sent with pages, stamped with `time`.
    public static func rating(of place: CatalogPlace, stars: Int, deviceID: String, at time: Double) -> OutboxSubmission
    {
        .rateme(
            SiteRating(
                site: site(place), imei: deviceID, calificacion: stars,
                fechahora: Fechahora.format(secondsSince1970: time)))
    }

    /// The business, page and microsite a row is about.
    public static func site(_ place: CatalogPlace) -> SiteIdentity {
        SiteIdentity(cliente: place.cliente, titulo: place.titulo, url: place.url)
    }
}
