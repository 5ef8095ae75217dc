/// A clock that moves only when told to (`advance(by:)`): the controllable clock of tests, so that backoff,
/// periods and retries are checked step by step instead of by waiting. Threads that sleep until a clock time are
/// told of every step (`whenAdvanced`) and look at the time again.
public final class ManualClock: OutboxClock, @unchecked Sendable {
    private let lock = ConditionLock()
    private var time: Double
    private var observers: [@Sendable () -> Void] = []

    public init(now: Double = 1_800_000_000) { time = now }

    public func now() -> Double { lock.withLock { time } }

    /// Moves the time forward by `seconds` (never backward) and tells every observer.
    public func advance(by seconds: Double) {
        let toCall = lock.withLock { () -> [@Sendable () -> Void] in
            time += max(0, seconds)
            return observers
        }
        for observer in toCall { observer() }
    }

    public func whenAdvanced(_ observer: @escaping @Sendable () -> Void) {
        lock.withLock { observers.append(observer) }
    }
}
