import FaroCore
import FaroStore
import FoundationEssentials

/// The outbox's background delivery (docs/outbox.md) to one backend: a thread of its own (never the UI thread,
/// never the Swift concurrency pool) with its own database connection and libcurl handle, which delivers due rows,
/// sleeps until the next one is due (on the injected clock), and wakes early for `wake()` (a new row), `retryNow()`
/// or a new configuration. While the backend cannot be reached it backs off as a whole; while it refuses the app
/// key it waits for `updateConfiguration`. Reports a status after every pass.
public final class OutboxDeliverer: @unchecked Sendable {
    /// What the window shows: counts, the last problem, and why delivery waits.
    public struct Status: Sendable, Equatable {
        /// Nil while the database cannot be read (then `lastProblem` says why).
        public var counts: OutboxCounts?
        public var lastProblem: String?
        /// Pending rows this backend would take.
        public var pendingHere: Int?
        /// Undelivered rows queued for another backend: shown as such, moved or discarded by the user.
        public var queuedElsewhere = 0
        /// "The backend refused the app key": rows stay pending until the configuration changes.
        public var keyRefused: String?
        /// The backend could not be reached (or kept failing) at the last pass.
        public var unreachable: String?
        /// The backend delivered to (its base URL).
        public var backend = ""
        /// Passes run so far (tests wait for the next one).
        public var passes = 0
    }

    private let databasePath: String
    private var configuration: BackendConfiguration
    private let schedule: BackoffSchedule
    private let policy: OutboxRetryPolicy
    private let clock: any OutboxClock
    private var onStatus: @Sendable (Status) -> Void
    /// Longest sleep while idle, so rows committed by another process (`faro register`) are picked up.
    private let idleRecheck: Double

    private let condition: ConditionLock
    private let worker: WorkerThread
    private var retryRequested = false
    private var configurationChanged = false
    private var latest: Status?

    public init(
        databasePath: String, configuration: BackendConfiguration, schedule: BackoffSchedule = .background,
        clock: any OutboxClock = SteadyOutboxClock(), idleRecheck: Double = 30,
        policy: OutboxRetryPolicy = OutboxRetryPolicy(),
        onStatus: @escaping @Sendable (Status) -> Void = { _ in }
    ) {
        let condition = ConditionLock()
        self.condition = condition
        worker = WorkerThread(name: "faro-outbox", condition: condition, clock: clock)
        self.databasePath = databasePath
        self.configuration = configuration
        self.schedule = schedule
        self.clock = clock
        self.idleRecheck = idleRecheck
        self.policy = policy
        self.onStatus = onStatus
    }

    /// Starts the delivery thread (once).
    public func start() {
        // libcurl is loaded by the first row the thread sends (CurlRuntime), not here: start() runs on the
        // window's main thread, and loading libcurl's libraries takes ~5 ms.
        worker.start(run: { [self] in threadMain() })
    }

    /// Asks the thread to stop after the row in flight and waits up to `timeout` seconds for it.
    public func stop(timeout: Double = 30) { worker.stop(timeout: timeout) }

    /// A new row was committed: deliver it now rather than at the next recheck.
    public func wake() { worker.wake() }

    /// "Retry now": every pending row becomes due at once, and a backend that could not be reached is tried again.
    public func retryNow() {
        condition.withLock {
            retryRequested = true
            worker.signal()
        }
    }

    /// The backend URL or app key changed (the user fixed the key, or chose another backend): rows waiting on a
    /// refused key are tried again at once with the new configuration.
    public func updateConfiguration(_ configuration: BackendConfiguration) {
        condition.withLock {
            self.configuration = configuration
            configurationChanged = true
            retryRequested = true
            worker.signal()
        }
    }

    /// The last status reported (nil before the first pass).
    public var status: Status? { condition.withLock { latest } }

    /// Waits until a pass ends with nothing pending for this backend (or with the app key refused: waiting would
    /// not help), or `timeout` passes; returns the last status.
    public func waitUntilDrained(timeout: Double) -> Status? {
        waitForStatus(timeout: timeout) { $0.pendingHere == 0 || $0.keyRefused != nil }
    }

    /// Waits until a pass reports a status for which `condition` holds (or `timeout` real seconds pass, or the
    /// thread ends); returns the last status.
    public func waitForStatus(timeout: Double, _ isWanted: (Status) -> Bool) -> Status? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !(latest.map(isWanted) ?? false), !worker.hasFinished {
            if !condition.wait(until: deadline) { break }
        }
        return latest
    }

    private func threadMain() {
        var pass: OutboxDeliveryPass?
        var storeFailures = 0
        var unreachableRun = 0
        var random = SystemRandomNumberGenerator()
        var passes = 0
        while worker.beginPass() {
            var sleepUntil = clock.now() + idleRecheck
            var pendingHere = true
            do {
                let (reconfigured, configuration) = takeConfiguration()
                if reconfigured { pass = nil }
                if pass == nil {
                    let database = try FaroDatabase(path: databasePath, durable: false)
                    // libcurl is loaded by the first row sent, not for a pass that finds none.
                    pass = OutboxDeliveryPass(
                        database: database, client: TablesClient(connectingOnFirstRequest: configuration),
                        schedule: schedule, clock: clock, policy: policy)
                }
                guard let pass else { break }
                if takeRetryRequest() {
                    try pass.database.outbox.retryNow(now: clock.now())
                    unreachableRun = 0
                }
                let outcome = try pass.run(shouldStop: { self.isStopping })
                pendingHere = outcome.pendingHere > 0
                passes += 1
                let counts = try pass.database.outbox.counts()
                storeFailures = 0
                publish(
                    Status(
                        counts: counts, lastProblem: outcome.lastProblem, pendingHere: outcome.pendingHere,
                        queuedElsewhere: outcome.queuedElsewhere, keyRefused: outcome.keyRefused,
                        unreachable: outcome.unreachable, backend: pass.backend, passes: passes))
                let now = clock.now()
                if outcome.keyRefused != nil {
                    // Every row would be refused the same way: wait for a new configuration (or a slow recheck).
                    sleepUntil = now + max(idleRecheck, schedule.cap)
                } else if outcome.unreachable != nil {
                    // A pass that delivered rows before the failure (a dropped connection, a short refusal) is
                    // tried again soon; only passes that got nothing through back off further.
                    unreachableRun = outcome.delivered > 0 ? 1 : unreachableRun + 1
                    let wait = schedule.delay(forAttempt: unreachableRun, random: &random)
                    sleepUntil = min(sleepUntil, max(outcome.nextDue ?? .infinity, now + wait))
                } else {
                    unreachableRun = 0
                    if let due = outcome.nextDue { sleepUntil = min(sleepUntil, due) }
                }
            } catch {
                // The database could not be used (locked, read-only…): report and try again with backoff.
                storeFailures += 1
                pass = nil
                sleepUntil = clock.now() + BackoffSchedule.background.delay(forAttempt: storeFailures, random: &random)
                passes += 1
                publish(Status(counts: nil, lastProblem: "\(error)", passes: passes))
            }
            // Nothing left for this backend, or a long wait (a backoff): the kept-alive connection goes, and with the
            // last libcurl handle libcurl itself is closed after a while (FaroCurl's CurlRuntime). The next pass
            // that has a row to send connects again; the idle rechecks only read the database.
            if !pendingHere || sleepUntil - clock.now() > IdleConnection.keepFor {
                pass?.client.closeConnection()
            }
            worker.sleep(until: sleepUntil)
        }
    }

    private var isStopping: Bool { condition.withLock { worker.isStopping } }

    private func takeRetryRequest() -> Bool {
        condition.withLock {
            let requested = retryRequested
            retryRequested = false
            return requested
        }
    }

    private func takeConfiguration() -> (changed: Bool, configuration: BackendConfiguration) {
        condition.withLock {
            let changed = configurationChanged
            configurationChanged = false
            return (changed, configuration)
        }
    }

    private func publish(_ status: Status) {
        let observer = condition.withLock {
            latest = status
            condition.broadcast()
            return onStatus
        }
        observer(status)
    }

    /// Who hears each pass's status from now on (on the delivery thread), instead of the one given at `init`.
    public func observe(_ handler: @escaping @Sendable (Status) -> Void) {
        condition.withLock { onStatus = handler }
    }
}
