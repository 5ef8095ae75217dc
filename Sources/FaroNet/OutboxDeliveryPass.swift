import FaroCore
import FaroStore

/// One pass of outbox delivery to one backend, without threads: every due row queued for this backend (or for
/// none yet) is sent, oldest first, each with its own backoff, so a row the backend keeps failing never holds back
/// the others — except rows about the same site, which wait behind their elder to keep their order. The pass ends
/// early when the backend cannot be reached (the other rows would fail the same way), keeps answering "try again"
/// row after row, or refuses the app key. The thread of `OutboxDeliverer` runs passes; tests and benchmarks can run
/// them directly.
public final class OutboxDeliveryPass {
    let database: FaroDatabase
    let client: TablesClient
    let schedule: BackoffSchedule
    let policy: OutboxRetryPolicy
    let clock: any OutboxClock
    var random = SystemRandomNumberGenerator()
    /// Rows read per query.
    let batch = 200
    /// Results written per commit, at most.
    let commitEvery = 50
    /// Longest time a result waits for its commit.
    let commitInterval = 0.25
    /// "Try again" answers in a row after which the pass stops (the backend is in trouble, not one row).
    let serverTroubleRun = 3

    public init(
        database: FaroDatabase, client: TablesClient, schedule: BackoffSchedule, clock: any OutboxClock,
        policy: OutboxRetryPolicy = OutboxRetryPolicy()
    ) {
        self.database = database
        self.client = client
        self.schedule = schedule
        self.policy = policy
        self.clock = clock
    }

    /// The backend this pass delivers to (its base URL, as rows record it).
    public var backend: String { client.configuration.baseURL }

    /// What a pass did and when the next one is due.
    public struct Outcome: Sendable, Equatable {
        public var attempted = 0
        public var delivered = 0
        /// The last retry reason or refusal, for the status line.
        public var lastProblem: String?
        /// When the earliest pending row of this backend becomes due (nil: nothing pending).
        public var nextDue: Double?
        /// Set when the pass stopped because the backend could not be reached or kept failing: wait, then retry.
        public var unreachable: String?
        /// Set when the backend refused the app key: nothing more until the configuration changes.
        public var keyRefused: String?
        /// Pending rows this backend would take, after the pass.
        public var pendingHere = 0
        /// Undelivered rows queued for another backend (moved or discarded by the user only).
        public var queuedElsewhere = 0
    }

    /// Runs one pass; `shouldStop` is checked between rows. Results are written back in small batches (at most
    /// `commitEvery` rows or `commitInterval` seconds per commit, and at the end of every query's rows): a crash in
    /// between only means a resend and a 409.
    public func run(shouldStop: () -> Bool = { false }) throws(StoreError) -> Outcome {
        var outcome = Outcome()
        let outbox = database.outbox
        // The generation the catalog pull learned for this backend decides what a 409 means (TablesClient.insert).
        if client.generation == nil { client.remember(try database.catalog.generation(baseURL: backend)) }
        var unsaved: [(transition: OutboxTransition, seq: Int64)] = []
        var lastCommit = clock.now()
        func save() throws(StoreError) {
            try outbox.apply(unsaved, now: clock.now(), backend: backend)
            unsaved.removeAll(keepingCapacity: true)
            lastCommit = clock.now()
        }
        var waitingKeys = Set<String>()
        var troubleRun = 0
        passLoop: for _ in 0..<10_000 {  // bounded: each round settles or defers every row it attempts
            let rows = try outbox.due(backend: backend, now: clock.now(), limit: batch)
            var attemptedThisRound = 0
            for row in rows {
                if shouldStop() { break passLoop }
                if let key = row.orderKey, waitingKeys.contains(key) { continue }
                let table = client.configuration.tableName(for: row.table)
                let result = client.insert(table: table, json: row.body)
                let verdict = DeliveryVerdict.classify(result, table: table)
                var reachedServer = true
                if case .transportFailure = result { reachedServer = false }
                let transition = OutboxTransition.after(
                    verdict, progress: row.progress, reachedServer: reachedServer, now: clock.now(),
                    schedule: schedule, policy: policy, random: &random)
                unsaved.append((transition, row.seq))
                outcome.attempted += 1
                attemptedThisRound += 1
                switch verdict {
                case .delivered:
                    outcome.delivered += 1
                    troubleRun = 0
                case .rejected(let reason):
                    outcome.lastProblem = reason.english
                    troubleRun = 0
                case .keyRefused(let reason):
                    outcome.lastProblem = reason.english
                    outcome.keyRefused = reason.english
                    break passLoop
                case .retry(let why):
                    let reason = why.english
                    outcome.lastProblem = transition.lastError ?? reason
                    if transition.state == .pending, let key = row.orderKey { waitingKeys.insert(key) }
                    if !reachedServer {
                        outcome.unreachable = reason
                        break passLoop
                    }
                    troubleRun += 1
                    if troubleRun >= serverTroubleRun {
                        outcome.unreachable = reason
                        break passLoop
                    }
                }
                if unsaved.count >= commitEvery || clock.now() - lastCommit >= commitInterval { try save() }
            }
            try save()
            if attemptedThisRound == 0 { break }  // nothing due, or only rows waiting behind an elder
        }
        try save()
        outcome.nextDue = try outbox.nextDue(backend: backend)
        outcome.pendingHere = try outbox.pendingCount(backend: backend)
        outcome.queuedElsewhere = try outbox.queuedElsewhere(than: backend).count
        return outcome
    }
}
