/// When the outbox stops retrying a row: after `maxServerErrors` answers that said "try again" (5xx,
/// 408, 429), or once the row has waited `maxAge` seconds since it was queued, it becomes failed with the server's
/// last reason. Attempts that never reached the backend (no network) do not count: a laptop offline for a week
/// loses nothing, and its rows only fail once they are `maxAge` old.
public struct OutboxRetryPolicy: Sendable, Equatable {
    public var maxServerErrors: Int
    public var maxAge: Double

    public init(maxServerErrors: Int = 10, maxAge: Double = 30 * 86_400) {
        self.maxServerErrors = max(1, maxServerErrors)
        self.maxAge = max(1, maxAge)
    }

    /// The defaults, with `FARO_OUTBOX_MAX_ATTEMPTS` (1…1000) and `FARO_OUTBOX_MAX_AGE_DAYS` (up to 3650) taken
    /// from `environment` when they hold valid numbers.
    public init(environment: [String: String]) {
        self.init()
        if let n = environment["FARO_OUTBOX_MAX_ATTEMPTS"].flatMap(Int.init), (1...1000).contains(n) {
            maxServerErrors = n
        }
        if let days = environment["FARO_OUTBOX_MAX_AGE_DAYS"].flatMap(Double.init), days > 0, days <= 3650 {
            maxAge = days * 86_400
        }
    }
}

/// How far a row's delivery has come, as the retry policy needs to know it.
public struct OutboxRowProgress: Sendable, Equatable {
    /// Attempts so far.
    public var attempts: Int
    /// "Try again" answers from the backend so far.
    public var serverErrors: Int
    /// When the row was queued (or queued again by the user), seconds since 1970.
    public var queuedAt: Double

    public init(attempts: Int, serverErrors: Int, queuedAt: Double) {
        self.attempts = attempts
        self.serverErrors = serverErrors
        self.queuedAt = queuedAt
    }
}
