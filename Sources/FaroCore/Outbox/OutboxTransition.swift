/// What to write back to an outbox row after an attempt: the pure rule between a `DeliveryVerdict` and the stored
/// state, so the store and the deliverer only apply it.
public struct OutboxTransition: Sendable, Equatable {
    public var state: OutboxRowState
    /// Attempts made so far, this one included.
    public var attempts: Int
    /// When the row may be tried again (seconds since 1970); only meaningful while `pending`.
    public var nextAttemptAt: Double
    /// The last error or the server's refusal, shown to the user; nil once delivered.
    public var lastError: String?

    public init(state: OutboxRowState, attempts: Int, nextAttemptAt: Double, lastError: String?) {
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
    }

    /// The row's new state after attempt number `previousAttempts + 1` ended with `verdict` at time `now`.
    public static func after(
        _ verdict: DeliveryVerdict, previousAttempts: Int, now: Double,
        schedule: BackoffSchedule, random: inout some UnitRandomSource
    ) -> OutboxTransition {
        let attempts = previousAttempts + 1
        switch verdict {
        case .delivered:
            return OutboxTransition(state: .delivered, attempts: attempts, nextAttemptAt: now, lastError: nil)
        case .retry(let reason):
            let wait = schedule.delay(forAttempt: attempts, random: &random)
            return OutboxTransition(state: .pending, attempts: attempts, nextAttemptAt: now + wait, lastError: reason)
        case .rejected(let message):
            return OutboxTransition(state: .failed, attempts: attempts, nextAttemptAt: now, lastError: message)
        }
    }
}

/// The numbers the window shows ("3 envíos pendientes") and `faro outbox` prints.
public struct OutboxCounts: Sendable, Equatable {
    public var pending: Int
    public var failed: Int
    public var delivered: Int

    public init(pending: Int, failed: Int, delivered: Int) {
        self.pending = pending
        self.failed = failed
        self.delivered = delivered
    }
}
