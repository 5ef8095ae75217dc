import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A mutex with a condition variable, for the few places where threads wait for each other (the outbox deliverer's
/// wake-ups, a scanner's shared state). The same calls as Foundation's `NSCondition`, which FoundationEssentials
/// does not have; the corresponding C functions are `pthread_mutex_*` and `pthread_cond_*`.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// `body` with the lock held.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Wakes one waiting thread.
    public func signal() { pthread_cond_signal(condition) }

    /// Waits (the lock held by the caller) until woken; like every condition wait it can wake early.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits (the lock held by the caller) until woken or until the wall-clock `deadline`; false when the deadline
    /// passed. Like every condition wait it can wake early: callers re-check what they wait for.
    @discardableResult
    public func wait(until deadline: Date) -> Bool {
        let seconds = max(0, deadline.timeIntervalSince1970)
        var whole = seconds.rounded(.down)
        var nanoseconds = ((seconds - whole) * 1e9).rounded()
        if nanoseconds >= 1e9 {
            whole += 1
            nanoseconds -= 1e9
        }
        var limit = timespec(tv_sec: Int(min(whole, Double(Int.max / 2))), tv_nsec: Int(nanoseconds))
        return pthread_cond_timedwait(condition, mutex, &limit) != ETIMEDOUT
    }
}
