/// How long the outbox waits before retrying a row: exponential backoff with "equal jitter".
///
/// The n-th retry (n = 1 after the first failure) waits `min(cap, base · factor^(n−1))`, of which the upper half is
/// randomised: `d/2 + random·d/2`. Half the delay is a floor (no hot loop against a failing server), the other half
/// spreads clients apart so they don't return in lockstep.
public struct BackoffSchedule: Sendable, Equatable {
    public var base: Double
    public var factor: Double
    public var cap: Double

    public init(base: Double, factor: Double = 2, cap: Double) {
        self.base = max(0, base)
        self.factor = max(1, factor)
        self.cap = max(self.base, cap)
    }

    /// The app's background delivery: 2 s, 4 s, 8 s … up to 10 minutes.
    public static let background = BackoffSchedule(base: 2, cap: 600)

    /// "Deliver now" from the terminal or the "retry now" button: the user is waiting, so retries start at 0.1 s and
    /// stay under 5 s, still growing and jittered.
    public static let interactive = BackoffSchedule(base: 0.1, cap: 5)

    /// The undithered delay before retry number `attempt` (1-based), in seconds.
    public func ceiling(forAttempt attempt: Int) -> Double {
        guard attempt > 0 else { return 0 }
        var delay = base
        var n = 1
        while n < attempt, delay < cap {  // bounded: stops once the cap is reached
            delay *= factor
            n += 1
        }
        return min(delay, cap)
    }

    /// The delay before retry number `attempt`, with jitter drawn from `random`.
    public func delay(forAttempt attempt: Int, random: inout some RandomNumberGenerator) -> Double {
        let ceiling = ceiling(forAttempt: attempt)
        let unit = min(max(random.nextUnit(), 0), 1)
        return ceiling / 2 + unit * ceiling / 2
    }
}
