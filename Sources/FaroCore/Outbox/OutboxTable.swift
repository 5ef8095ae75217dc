/// The backend tables Faro writes to through the outbox; the raw value is the default table name (docs/backend.md).
public enum OutboxTable: String, Sendable, CaseIterable {
    /// "Registrar mi negocio" (§5).
    case interested
    /// "Enviar mis datos" (§9).
    case contactame
    /// "Calificar sitio" (§10).
    case rateme
}

/// Where one outbox row stands. A row is never removed by delivery: it ends `delivered` or `failed`.
public enum OutboxRowState: String, Sendable {
    /// Waiting for (another) delivery attempt.
    case pending
    /// The backend holds the row (201, or 409 "already there").
    case delivered
    /// The backend refused the row for good (a 4xx other than 409/408/429); kept and shown with the server's message.
    case failed
}
