import FoundationEssentials

/// The outbox's clock (docs/outbox.md): the wall clock, except that it does not follow a step back. Retry times are
/// stored as wall-clock times; set back by two hours, the plain wall clock would hold every retry two hours. This
/// one follows the wall clock forward (a resume, a correction forward: what fell due while the machine slept is
/// due); when the wall clock is behind it, it goes on from where it was at the pace of the monotonic clock, and
/// keeps that lead until the wall clock moves past it (the next step forward). So a step back neither brings a
/// retry forward nor holds it back.
public final class SteadyOutboxClock: OutboxClock, @unchecked Sendable {
    private let wall: @Sendable () -> Double
    private let monotonic: @Sendable () -> Double
    private let lock = ConditionLock()
    private var anchor: (wall: Double, monotonic: Double)?

    /// `wall`: seconds since 1970; `monotonic`: seconds of a clock that never steps (it may stop while asleep).
    public init(
        wall: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        monotonic: @escaping @Sendable () -> Double = SteadyOutboxClock.suspendingSeconds
    ) {
        self.wall = wall
        self.monotonic = monotonic
    }

    public func now() -> Double {
        lock.withLock {
            let w = wall()
            let m = monotonic()
            if let anchor {
                let steady = anchor.wall + (m - anchor.monotonic)
                if w < steady { return steady }
            }
            anchor = (w, m)
            return w
        }
    }

    /// Seconds of Swift's `SuspendingClock` (the system's monotonic clock) since an arbitrary start.
    public static let suspendingSeconds: @Sendable () -> Double = {
        let start = SuspendingClock.now
        return {
            let elapsed = SuspendingClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
    }()
}
