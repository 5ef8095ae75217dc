/// What "Probar conexión" found (one catalog request; see docs/preferences.md).
public enum ConnectionCheck: Equatable, Sendable {
    /// The backend listed its catalog: `places` live places (nil when the backend did not say and its first page
    /// was not the whole catalog), speaking `generation` ("3.0.0 (Datasync)").
    case connected(places: Int?, generation: String)
    /// HTTP 401 or 403: check the app key.
    case refused(status: Int)
    /// Not HTTPS and not this computer.
    case notHTTPS
    case notAURL
    /// Nothing answered, with the network library's words.
    case noAnswer(String)
    /// It answered, but not as a Faro backend does.
    case unexpected(String)
}
