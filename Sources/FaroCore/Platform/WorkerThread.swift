import FoundationEssentials

/// A service's worker thread and its loop (the catalog's sync, the outbox's delivery): started once, asked to
/// stop, waited for; in between, passes of work and sleeps until the next one is due on the injected clock. Its
/// flags live under the owner's `ConditionLock`, the one the thread sleeps on, so that a stop request or new work
/// wakes it and the owner's own state and the thread's state change together.
///
/// The owner's thread runs
/// ```
/// while worker.beginPass() {
///     … take the work queued under the lock, do it, find when the next is due …
///     worker.sleep(until: due)
/// }
/// ```
/// and whoever queues work does it under the lock and calls `signal()` there (or `wake()` without the lock).
public final class WorkerThread: @unchecked Sendable {
    private let name: String
    private let condition: ConditionLock
    private let clock: any OutboxClock
    private var running = false
    private var stopping = false
    private var finished = true
    private var observingClock = false
    /// Work was signalled since the current pass began.
    private var woken = false
    /// The thread is in `sleep(until:)`.
    private var asleep = false
    /// The clock jumped since the sleeping thread last looked at the time.
    private var clockJumped = false

    /// A worker called `name` (what `top -H` shows) whose state is guarded by `condition`, sleeping on `clock`.
    public init(name: String, condition: ConditionLock, clock: any OutboxClock = SystemOutboxClock()) {
        self.name = name
        self.condition = condition
        self.clock = clock
    }

    /// Whether a stop was asked. Read with the lock held (inside the owner's `withLock` or wait loop).
    public var isStopping: Bool { stopping }

    /// Whether the thread has ended (or never ran). Read with the lock held.
    public var hasFinished: Bool { finished }

    /// Whether the thread sleeps with nothing signalled since its last pass began (or has ended): what a test or
    /// the terminal waits for instead of sleeping. Read with the lock held.
    public var isIdle: Bool { (asleep && !woken && !clockJumped) || finished }

    /// With the lock held: work was queued (or anything the pass looks at changed); the thread makes another pass,
    /// at once if it sleeps, else after the one in hand.
    public func signal() {
        woken = true
        condition.broadcast()
    }

    /// `signal()` for a caller that does not hold the lock.
    public func wake() { condition.withLock { signal() } }

    /// On the worker thread, before each pass: false once a stop was asked (the loop ends). What was signalled
    /// before this is taken by the pass that follows.
    public func beginPass() -> Bool {
        condition.withLock {
            woken = false
            return !stopping
        }
    }

    /// On the worker thread, after a pass: sleeps until `clock` reaches `due` (nil: no time, only a signal), a
    /// signal, or a stop. A signal given during the pass ends it at once; a jump of the clock makes it look at the
    /// time again.
    public func sleep(until due: Double?) {
        condition.lock()
        defer { condition.unlock() }
        asleep = true
        while !stopping, !woken {
            clockJumped = false
            condition.broadcast()  // waiters for `isIdle` look again
            guard let due else {
                condition.wait()
                continue
            }
            let remaining = due - clock.now()
            if remaining <= 0 { break }
            // Real seconds bound each wait; a jump of an injected clock wakes it earlier (`whenAdvanced`).
            _ = condition.wait(until: Date().addingTimeInterval(min(remaining, 3600)))
        }
        asleep = false
        clockJumped = false
    }

    /// Starts `run` on a thread of its own unless one is running; false when it was already running. `starting`
    /// runs first, under the lock, only when a thread is about to start (the owner queues its first work there).
    /// `ending` runs under the lock when `run` returns, before waiters are woken. When the system cannot start a
    /// thread, the worker counts as finished at once, so that `stop` does not wait for it.
    @discardableResult
    public func start(
        starting: () -> Void = {}, ending: @escaping @Sendable () -> Void = {},
        run body: @escaping @Sendable () -> Void
    ) -> Bool {
        let start = condition.withLock { () -> Bool in
            guard !running else { return false }
            running = true
            stopping = false
            finished = false
            woken = false
            starting()
            if !observingClock {
                observingClock = true
                clock.whenAdvanced { [weak self] in self?.clockAdvanced() }
            }
            return true
        }
        guard start else { return false }
        let started = DetachedThread.start(name: name) { [self] in
            body()
            finish(ending)
        }
        if !started { finish(ending) }
        return true
    }

    /// Asks the thread to stop (it sees `isStopping` after the work in hand) and waits up to `timeout` seconds for
    /// it to end. Afterwards `start` may run a new thread.
    public func stop(timeout: Double) {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        let deadline = Date().addingTimeInterval(timeout)
        while !finished, condition.wait(until: deadline) {}
        running = false
    }

    private func clockAdvanced() {
        condition.withLock {
            clockJumped = true
            condition.broadcast()
        }
    }

    private func finish(_ ending: () -> Void) {
        condition.withLock {
            finished = true
            ending()
            condition.broadcast()
        }
    }
}

/// How long a worker keeps an idle backend connection open: a wait shorter than this (a row due soon, a lookup
/// right after a pull, a quick retry) reuses it; a longer one closes it first, so that an idle tray app holds no
/// socket.
public enum IdleConnection {
    public static let keepFor: Double = 30
}
