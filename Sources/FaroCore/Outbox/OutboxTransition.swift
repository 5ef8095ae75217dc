/// What to write back to an outbox row after an attempt: the pure rule between a `DeliveryVerdict` and the stored
/// state, so the store and the deliverer only apply it.
public struct OutboxTransition: Sendable, Equatable {
    public var state: OutboxRowState
    /// Attempts made so far, this one included.
    public var attempts: Int
    /// When the row may be tried again (seconds since 1970); only meaningful while `pending`.
    public var nextAttemptAt: Double
    /// The last error or the server's refusal in the terminal's English (`reason.english`); nil once delivered.
    public var lastError: String?
    /// The same as a value, which the window words; nil once delivered.
    public var reason: OutboxReason?
    /// "Try again" answers from the backend so far, when the transition knows (nil: leave the stored count).
    public var serverErrors: Int?

    public init(
        state: OutboxRowState, attempts: Int, nextAttemptAt: Double, lastError: String?, serverErrors: Int? = nil
    ) {
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.serverErrors = serverErrors
    }

    /// A transition whose stored text is the terminal's wording of `reason`.
    public init(
        state: OutboxRowState, attempts: Int, nextAttemptAt: Double, reason: OutboxReason?, serverErrors: Int? = nil
    ) {
        self.init(
            state: state, attempts: attempts, nextAttemptAt: nextAttemptAt, lastError: reason?.english,
            serverErrors: serverErrors)
        self.reason = reason
    }

    /// Sets `reason` and the text made from it.
    mutating func explain(_ reason: OutboxReason) {
        self.reason = reason
        lastError = reason.english
    }

    /// The row's new state after attempt number `previousAttempts + 1` ended with `verdict` at time `now`.
    public static func after(
        _ verdict: DeliveryVerdict, previousAttempts: Int, now: Double,
        schedule: BackoffSchedule, random: inout some RandomNumberGenerator
    ) -> OutboxTransition {
        let attempts = previousAttempts + 1
        switch verdict {
        case .delivered:
            return OutboxTransition(state: .delivered, attempts: attempts, nextAttemptAt: now, lastError: nil)
        case .retry(let reason):
            let wait = schedule.delay(forAttempt: attempts, random: &random)
            return OutboxTransition(state: .pending, attempts: attempts, nextAttemptAt: now + wait, reason: reason)
        case .rejected(let reason):
            return OutboxTransition(state: .failed, attempts: attempts, nextAttemptAt: now, reason: reason)
        case .keyRefused(let reason):
            // Not the row's fault: nothing counts, the row waits for the configuration to change.
            return OutboxTransition(state: .pending, attempts: previousAttempts, nextAttemptAt: now, reason: reason)
        }
    }

    /// The row's new state after an attempt with `verdict`, under `policy`: a "try again" answer from the server
    /// counts towards `maxServerErrors`; a row past `maxAge` stops waiting. `reachedServer` is false when the
    /// attempt got no HTTP answer at all (that never counts against the row).
    public static func after(
        _ verdict: DeliveryVerdict, progress: OutboxRowProgress, reachedServer: Bool, now: Double,
        schedule: BackoffSchedule, policy: OutboxRetryPolicy, random: inout some RandomNumberGenerator
    ) -> OutboxTransition {
        var transition = after(
            verdict, previousAttempts: progress.attempts, now: now, schedule: schedule, random: &random)
        guard case .retry(let reason) = verdict else { return transition }
        let serverErrors = progress.serverErrors + (reachedServer ? 1 : 0)
        transition.serverErrors = serverErrors
        if serverErrors >= policy.maxServerErrors {
            transition.state = .failed
            transition.explain(.gaveUpAfterErrors(count: serverErrors, last: reason))
        } else if now - progress.queuedAt >= policy.maxAge {
            transition.state = .failed
            let days = Int((now - progress.queuedAt) / 86_400)
            transition.explain(.gaveUpAfterDays(days: days, last: reason))
        }
        return transition
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
