/// The site flag written in the same transaction as an outbox row, so the flag and the row never disagree after
/// a crash: "Enviar mis datos" is offered once, "Calificar sitio" hides itself once rated. The use case that
/// commits the row decides it; storage only writes it.
public enum SiteMark: Sendable, Equatable {
    /// The contact details were sent to the site at `url`.
    case contactSent(url: String)
    /// The site at `url` was rated `rating` stars.
    case rated(url: String, rating: Int)
}
