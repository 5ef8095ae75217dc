import FaroCore
import FaroStore
import FoundationEssentials

/// One pass of outbox delivery, without threads: for each table, send the pending rows in commit order until one
/// must wait (retry later) — a table never overtakes its own head — and write each result back. A row the backend
/// refuses for good is kept as failed and does not block the rows behind it. The thread of
/// `OutboxDeliverer` runs passes; tests and benchmarks can run them directly.
public final class OutboxDeliveryPass {
    let database: FaroDatabase
    let client: TablesClient
    let schedule: BackoffSchedule
    let clock: any OutboxClock
    var random = SystemUnitRandom()
    /// Rows read per table and pass.
    let batch = 200
    /// Results written per commit, at most.
    let commitEvery = 50
    /// Longest time a result waits for its commit.
    let commitInterval = 0.25

    public init(database: FaroDatabase, client: TablesClient, schedule: BackoffSchedule, clock: any OutboxClock) {
        self.database = database
        self.client = client
        self.schedule = schedule
        self.clock = clock
    }

    /// What a pass did and when the next one is due.
    public struct Outcome: Sendable, Equatable {
        public var attempted = 0
        public var delivered = 0
        /// The last retry reason or refusal, for the status line.
        public var lastProblem: String?
        /// When the earliest pending row becomes due (nil: nothing pending).
        public var nextDue: Double?
    }

    /// Runs one pass; `shouldStop` is checked between rows. Results are written back in small batches (at most
    /// `commitEvery` rows or `commitInterval` seconds per commit): a crash in between only means a resend and a 409.
    public func run(shouldStop: () -> Bool = { false }) throws(StoreError) -> Outcome {
        var outcome = Outcome()
        var unsaved: [(transition: OutboxTransition, seq: Int64)] = []
        var lastCommit = clock.now()
        func save() throws(StoreError) {
            try database.outbox.apply(unsaved, now: clock.now())
            unsaved.removeAll(keepingCapacity: true)
            lastCommit = clock.now()
        }
        for table in OutboxTable.allCases {
            let rows = try database.outbox.list(table: table, limit: batch)
            rowLoop: for row in rows {
                if shouldStop() { break rowLoop }
                let now = clock.now()
                if row.nextAttemptAt > now { break rowLoop }  // the head waits: later rows wait behind it
                let result = client.insert(table: client.configuration.tableName(for: row.table), json: row.body)
                let verdict = DeliveryVerdict.classify(result)
                let transition = OutboxTransition.after(
                    verdict, previousAttempts: row.attempts, now: clock.now(),
                    schedule: schedule, random: &random)
                unsaved.append((transition, row.seq))
                if unsaved.count >= commitEvery || clock.now() - lastCommit >= commitInterval { try save() }
                outcome.attempted += 1
                switch verdict {
                case .delivered: outcome.delivered += 1
                case .retry(let reason):
                    outcome.lastProblem = reason
                    break rowLoop
                case .rejected(let message): outcome.lastProblem = message
                }
            }
            try save()
        }
        outcome.nextDue = try database.outbox.pendingHeads().map(\.nextAttemptAt).min()
        return outcome
    }
}

/// The outbox's background delivery (PRODUCT.md §11): a thread of its own (never the UI thread, never the Swift
/// concurrency pool) with its own database connection and libcurl handle, which delivers due rows, sleeps until
/// the next one is due, and wakes early for `wake()` (a new row) or `retryNow()`. Reports counts after every pass.
public final class OutboxDeliverer: @unchecked Sendable {
    /// What the window shows: counts and the last problem.
    public struct Status: Sendable, Equatable {
        /// Nil while the database cannot be read (then `lastProblem` says why).
        public var counts: OutboxCounts?
        public var lastProblem: String?
    }

    private let databasePath: String
    private let configuration: BackendConfiguration
    private let schedule: BackoffSchedule
    private let clock: any OutboxClock
    private let onStatus: @Sendable (Status) -> Void
    /// Longest sleep while idle, so rows committed by another process (`faro register`) are picked up.
    private let idleRecheck: Double

    private let condition = ConditionLock()
    private var stopping = false
    private var woken = false
    private var retryRequested = false
    private var running = false
    private var finished = true
    private var latest: Status?

    public init(
        databasePath: String, configuration: BackendConfiguration, schedule: BackoffSchedule = .background,
        clock: any OutboxClock = SystemOutboxClock(), idleRecheck: Double = 30,
        onStatus: @escaping @Sendable (Status) -> Void = { _ in }
    ) {
        self.databasePath = databasePath
        self.configuration = configuration
        self.schedule = schedule
        self.clock = clock
        self.idleRecheck = idleRecheck
        self.onStatus = onStatus
    }

    /// Starts the delivery thread (once).
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !running else { return }
        running = true
        finished = false
        stopping = false
        Curl.initialize()
        DetachedThread.start(name: "faro-outbox") { [self] in self.threadMain() }
    }

    /// Asks the thread to stop after the row in flight and waits up to `timeout` seconds for it.
    public func stop(timeout: Double = 30) {
        condition.lock()
        stopping = true
        condition.broadcast()
        let deadline = Date().addingTimeInterval(timeout)
        while !finished, condition.wait(until: deadline) {}
        running = false
        condition.unlock()
    }

    /// A new row was committed: deliver it now rather than at the next recheck.
    public func wake() {
        condition.lock()
        woken = true
        condition.broadcast()
        condition.unlock()
    }

    /// "Retry now": every pending row (and, with `includingFailed`, every refused one) becomes due at once.
    public func retryNow() {
        condition.lock()
        retryRequested = true
        woken = true
        condition.broadcast()
        condition.unlock()
    }

    /// The last status reported (nil before the first pass).
    public var status: Status? {
        condition.lock()
        defer { condition.unlock() }
        return latest
    }

    /// Waits until a pass ends with nothing pending, or `timeout` passes; returns the last status.
    public func waitUntilDrained(timeout: Double) -> Status? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while latest?.counts?.pending != 0, !finished {
            if !condition.wait(until: deadline) { break }
        }
        return latest
    }

    private func threadMain() {
        defer {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        var pass: OutboxDeliveryPass?
        var failures = 0
        while !isStopping {
            var sleepUntil = clock.now() + idleRecheck
            do {
                if pass == nil {
                    let database = try FaroDatabase(path: databasePath, durable: false)
                    let client = try TablesClient(configuration: configuration)
                    pass = OutboxDeliveryPass(database: database, client: client, schedule: schedule, clock: clock)
                }
                guard let pass else { break }
                if takeRetryRequest() { try pass.database.outbox.retryNow(now: clock.now()) }
                let outcome = try pass.run(shouldStop: { self.isStopping })
                let counts = try pass.database.outbox.counts()
                publish(Status(counts: counts, lastProblem: outcome.lastProblem))
                failures = 0
                if let due = outcome.nextDue { sleepUntil = min(sleepUntil, due) }
            } catch {
                // The database could not be used (locked, read-only…): report and try again with backoff.
                failures += 1
                pass = nil
                var random = SystemUnitRandom()
                sleepUntil = clock.now() + BackoffSchedule.background.delay(forAttempt: failures, random: &random)
                publish(Status(counts: nil, lastProblem: "\(error)"))
            }
            sleep(until: sleepUntil)
        }
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    private func takeRetryRequest() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let requested = retryRequested
        retryRequested = false
        return requested
    }

    private func publish(_ status: Status) {
        condition.lock()
        latest = status
        condition.broadcast()
        condition.unlock()
        onStatus(status)
    }

    private func sleep(until time: Double) {
        condition.lock()
        defer { condition.unlock() }
        // Bounded: every wait ends at the deadline, on wake() or on stop().
        while !stopping, !woken {
            let remaining = time - clock.now()
            if remaining <= 0 { break }
            _ = condition.wait(until: Date().addingTimeInterval(remaining))
        }
        woken = false
    }
}
