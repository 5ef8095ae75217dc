import FaroCore
import FoundationEssentials

/// What runs after the session on the runner's thread: it turns session updates into what its consumer shows
/// (the window's rows are built here, off the main thread). Only the runner's thread ever calls it.
public protocol BeaconSessionStage: AnyObject, Sendable {
    /// What the consumer tells the stage besides the session's updates (the scanner's state, whether a list is
    /// wanted); set with `BeaconSessionRunner.setInputs`.
    associatedtype Inputs: Sendable
    associatedtype Output: Sendable

    /// The outputs for one batch of updates. `refresh` is set when the inputs or the places changed without a
    /// tick: `updates` then holds the last tick's `.ranged` again, so a list can be rebuilt.
    func process(_ updates: [BeaconSessionUpdate], inputs: Inputs, refresh: Bool) -> [Output]

    /// Scanning stopped: forget what was built.
    func reset()
}

/// Runs a `BeaconSession` on a thread of its own (lower priority, so on a busy machine the main loop gets the core
/// first) and ticks it about once a second while it is asked to or while beacons are in range; with nothing in
/// range and no one watching it sleeps without a single wake-up.
///
/// - Sightings are queued under a lock and taken by the next job: a burst of advertisements costs one wake-up.
/// - Requests that pile up while the thread is busy are merged: the latest inputs and places win, a reset drops
///   the sightings queued before it.
/// - Outputs go through `hop` (for the window: to the GTK main thread) and then to `deliver`, in order; a batch
///   produced before the latest `reset()` is dropped there, so a stopped scanner's rows never reappear.
public final class BeaconSessionRunner<Stage: BeaconSessionStage>: @unchecked Sendable {
    private let condition = ConditionLock()
    // Guarded by `condition`.
    //
    // The properties touched for every sighting (here and in the thread-only group below) are marked
    // `@exclusivity(unchecked)`: the lock (or the one thread) already keeps their accesses apart, and the run-time
    // exclusivity check on each access of a class's property (swift_beginAccess, a thread-local access set) was
    // most of what queueing a sighting cost. No access to them may overlap another (none calls out while one is
    // in progress); unchecked, such a bug would go unreported instead of trapping.
    @exclusivity(unchecked) private var sightings: [BeaconSighting] = []
    /// The buffer of a batch already ranged, emptied and handed back for the next batch to queue into, so that a
    /// steady stream of sightings does not grow a new array (a reallocation and copy at every doubling) per batch.
    @exclusivity(unchecked) private var spare: [BeaconSighting] = []
    private var pendingCatalog: CatalogIndex?
    private var pendingCalibration: PowerCalibration?
    private var queries: [(identity: BeaconIdentity, reply: @Sendable (BeaconDetails) -> Void)] = []
    private var withdrawals: [(region: String, time: Double)] = []
    private var inputs: Stage.Inputs
    private var refreshWanted = false
    private var resetWanted = false
    private var tickWanted = false
    private var keepTicking = false
    private var epoch = 0
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var stopping = false
    private var stopped = false
    // Only the runner's thread touches these once it runs.
    @exclusivity(unchecked) private var session: BeaconSession
    @exclusivity(unchecked) private var sourceClock = SourceClock()
    private var nextTick: Double?
    private var inRange = 0
    private let stage: Stage

    private let machineClock: @Sendable () -> Double
    private let autoTick: Bool
    private let threadName: String
    private let niceness: Int32
    private let hop: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let deliver: @Sendable ([Stage.Output]) -> Void

    /// - Parameters:
    ///   - machineClock: monotonic seconds of this machine (ticks and the source-clock estimate).
    ///   - autoTick: tick by itself once a second; tests turn it off and call `tickNow()`.
    ///   - niceness: the thread's nice value (10 in the window).
    ///   - hop: how outputs reach their consumer's thread (the window passes the GTK main loop).
    ///   - deliver: the consumer, called inside `hop`.
    public init(
        session: BeaconSession, stage: Stage, inputs: Stage.Inputs, machineClock: @escaping @Sendable () -> Double,
        autoTick: Bool = true, threadName: String = "faro-session", niceness: Int32 = 10,
        hop: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        deliver: @escaping @Sendable ([Stage.Output]) -> Void
    ) {
        self.session = session
        self.stage = stage
        self.inputs = inputs
        self.machineClock = machineClock
        self.autoTick = autoTick
        self.threadName = threadName
        self.niceness = niceness
        self.hop = hop
        self.deliver = deliver
    }

    /// Queues a sighting for the next job (any thread).
    public func observe(_ sighting: BeaconSighting) {
        condition.lock()
        let wasIdle = sightings.isEmpty
        sightings.append(sighting)
        if wasIdle { wakeLocked() }
        condition.unlock()
    }

    /// The catalog (its places name rows and become regions).
    public func setCatalog(_ catalog: CatalogIndex) {
        submit {
            $0.pendingCatalog = catalog
            $0.refreshWanted = true
        }
    }

    /// What the session knows of one beacon now (its page): `reply` is called through `hop`, after the next job.
    public func details(of identity: BeaconIdentity, reply: @escaping @Sendable (BeaconDetails) -> Void) {
        submit { $0.queries.append((identity, reply)) }
    }

    /// An announced entry raised no notification: the session's cool-down for that region does not start at it
    /// (`BeaconSession.withdrawAnnouncement`), from the next job on.
    public func withdrawAnnouncement(of region: String, at time: Double) {
        submit { $0.withdrawals.append((region, time)) }
    }

    /// New calibrations or adapter offset; the last tick's beacons are listed again with them at the next tick.
    public func setCalibration(_ calibration: PowerCalibration) {
        submit {
            $0.pendingCalibration = calibration
            $0.tickWanted = true
        }
    }

    /// New inputs for the stage; the last tick's result is processed again with them.
    public func setInputs(_ inputs: Stage.Inputs) {
        submit {
            $0.inputs = inputs
            $0.refreshWanted = true
        }
    }

    /// Whether to keep ticking with nothing in range (the window is open).
    public func setTicking(_ wanted: Bool) {
        submit { $0.keepTicking = wanted }
    }

    /// Forgets every beacon: the queued sightings now, the session's state in the next job.
    public func reset() {
        submit {
            $0.sightings.removeAll()
            $0.epoch += 1
            $0.resetWanted = true
            $0.refreshWanted = true
        }
    }

    /// One tick now (for tests, with `autoTick` off).
    public func tickNow() {
        submit { $0.tickWanted = true }
    }

    /// Stops the thread after the job in hand and waits for it (the application is quitting).
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while started, !stopped { condition.wait() }
        condition.unlock()
    }

    /// Whether outputs of `jobEpoch` are still wanted (no reset since).
    private func isCurrent(_ jobEpoch: Int) -> Bool {
        condition.withLock { jobEpoch == epoch }
    }

    private func submit(_ change: (BeaconSessionRunner) -> Void) {
        condition.lock()
        change(self)
        wakeLocked()
        condition.unlock()
    }

    /// Starts the thread on first use and wakes it. Called with the lock held.
    private func wakeLocked() {
        if !started, !stopping {
            started = true
            let runner = self
            _ = DetachedThread.start(name: threadName) { runner.threadMain() }
        }
        condition.signal()
    }

    private struct Job {
        var reset: Bool
        var catalog: CatalogIndex?
        var calibration: PowerCalibration?
        var queries: [(identity: BeaconIdentity, reply: @Sendable (BeaconDetails) -> Void)]
        var withdrawals: [(region: String, time: Double)]
        var sightings: [BeaconSighting]
        var inputs: Stage.Inputs
        var refresh: Bool
        var tick: Bool
        var epoch: Int
    }

    private func threadMain() {
        _ = ThreadPriority.setNice(niceness)
        while var job = nextJob() { run(&job) }
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for work (or the next tick) and takes it; nil once stopping.
    private func nextJob() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopping { return nil }
            let ticking = autoTick && (keepTicking || inRange > 0 || !sightings.isEmpty)
            // The first tick comes at once (the first sighting after a quiet spell is listed without waiting a
            // second), the next ones once a second.
            if ticking, nextTick == nil { nextTick = machineClock() }
            if !ticking { nextTick = nil }
            let tickDue = tickWanted || (nextTick.map { machineClock() >= $0 } ?? false)
            if tickDue || !sightings.isEmpty || resetWanted || refreshWanted || pendingCatalog != nil
                || pendingCalibration != nil || !queries.isEmpty || !withdrawals.isEmpty
            {
                var taken: [BeaconSighting] = []
                swap(&taken, &sightings)
                swap(&sightings, &spare)
                let job = Job(
                    reset: resetWanted, catalog: pendingCatalog, calibration: pendingCalibration, queries: queries,
                    withdrawals: withdrawals, sightings: taken,
                    inputs: inputs,
                    refresh: refreshWanted, tick: tickDue, epoch: epoch)
                resetWanted = false
                pendingCatalog = nil
                pendingCalibration = nil
                queries = []
                withdrawals = []
                refreshWanted = false
                tickWanted = false
                if tickDue, let due = nextTick {
                    // Once a second on the machine's clock; after a long stall, one tick, not a burst.
                    nextTick = max(due + 1, machineClock() + 0.5)
                }
                return job
            }
            if let due = nextTick {
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(0, due - machineClock())))
            } else {
                condition.wait()
            }
        }
    }

    /// Hands a ranged batch's buffer back to be queued into again, unless it grew past what is worth keeping
    /// (a burst after a stall).
    private func recycle(_ batch: inout [BeaconSighting]) {
        guard batch.capacity > 0, batch.capacity <= BeaconSessionRunner.spareCapacityLimit else { return }
        batch.removeAll(keepingCapacity: true)
        condition.withLock {
            if spare.capacity < batch.capacity { swap(&spare, &batch) }
        }
    }

    /// The largest buffer kept for the next batch (about 200 KB of sightings).
    private static var spareCapacityLimit: Int { 4096 }

    private func run(_ job: inout Job) {
        var updates: [BeaconSessionUpdate] = []
        if job.reset {
            session.reset()
            sourceClock.reset()
            stage.reset()
        }
        if let catalog = job.catalog { session.setCatalog(catalog) }
        if let calibration = job.calibration { session.setCalibration(calibration) }
        for withdrawal in job.withdrawals { session.withdrawAnnouncement(of: withdrawal.region, at: withdrawal.time) }
        let now = machineClock()
        for sighting in job.sightings {
            sourceClock.heard(sourceTime: sighting.time, at: now)
            session.observe(sighting) { updates.append($0) }
        }
        recycle(&job.sightings)
        if job.tick {
            session.tick(at: sourceClock.estimate(at: machineClock())) { updates.append($0) }
        } else if job.refresh {
            updates.append(.ranged(session.current))
        }
        for query in job.queries {
            let details = BeaconDetails(
                identity: query.identity,
                ranged: session.lastSnapshot.beacons.first { $0.identity == query.identity },
                history: session.readings(of: query.identity), calibration: session.calibration,
                now: session.lastSnapshot.time)
            let reply = query.reply
            hop { reply(details) }
        }
        let ranged = updates.contains { if case .ranged = $0 { true } else { false } }
        let refresh = job.refresh && !job.tick
        condition.withLock { inRange = session.inRange }
        guard !updates.isEmpty else { return }
        let outputs = stage.process(updates, inputs: job.inputs, refresh: refresh && ranged)
        guard !outputs.isEmpty else { return }
        let deliver = self.deliver
        let epoch = job.epoch
        hop { [self] in
            guard self.isCurrent(epoch) else { return }
            deliver(outputs)
        }
    }
}
