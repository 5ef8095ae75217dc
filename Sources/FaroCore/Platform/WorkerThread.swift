import FoundationEssentials

/// The life of a service's worker thread, as its owner sees it: started once, asked to stop, waited for (the
/// catalog's sync, the outbox's delivery). Its flags live under the owner's `ConditionLock`, the one the thread
/// sleeps on, so that a stop request wakes it and the owner's own state and the thread's state change together.
public final class WorkerThread: @unchecked Sendable {
    private let name: String
    private let condition: ConditionLock
    private var running = false
    private var stopping = false
    private var finished = true

    /// A worker called `name` (what `top -H` shows) whose state is guarded by `condition`.
    public init(name: String, condition: ConditionLock) {
        self.name = name
        self.condition = condition
    }

    /// Whether a stop was asked. Read with the lock held (inside the owner's `withLock` or wait loop).
    public var isStopping: Bool { stopping }

    /// Whether the thread has ended (or never ran). Read with the lock held.
    public var hasFinished: Bool { finished }

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
            starting()
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
