import FaroCore
import FoundationEssentials

/// What the catalog service tells the window (one typed update, consumed in one place).
public enum CatalogServiceUpdate: Sendable, Equatable {
    /// The local catalog was loaded or changed: every place, indexed by beacon. Rows and regions come from it, so
    /// a catalogued place is named and notified even when it is first sighted offline.
    case catalogChanged(CatalogIndex)
    /// Whether the backend can be reached changed (the window's one calm line when it cannot).
    case reachability(CatalogReachability)
}

/// The local catalog, kept in memory and in sync with the backend, without any display: it loads what was synced
/// before (offline at once), then runs `CatalogSyncScheduler`'s actions on a worker thread of its own — a pull at
/// start, every period, when the network is back, soon after an unknown beacon is sighted; lookups where listing is
/// refused — on an injected clock, and reports changes through the passed-in hop to the main thread.
public final class CatalogService: @unchecked Sendable {
    /// Makes the syncer on the worker thread (it owns a database connection and a libcurl handle); throws with a
    /// reason a user can read when it cannot (the database is locked…). Nil: no backend is configured.
    public typealias SyncerFactory = @Sendable () throws -> (any CatalogSyncing)?

    private let settings: CatalogSyncSettings
    private let clock: any OutboxClock
    private let main: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let onUpdate: @Sendable (CatalogServiceUpdate) -> Void

    private let condition: ConditionLock
    private let worker: WorkerThread
    private var factory: SyncerFactory
    private var factoryChanged = false
    private var triggers: [CatalogSyncScheduler.Trigger] = []
    /// Unknown beacons with a sighting waiting in `triggers` (a burst of sightings is one trigger).
    private var pendingUnknown = Set<BeaconIdentity>()
    private var currentIndex = CatalogIndex()
    private var currentReachability = CatalogReachability.unknown

    /// `main` runs a closure on the UI thread (the GTK app passes its idle hop; tests may run it in place);
    /// `onUpdate` is called through it.
    public init(
        settings: CatalogSyncSettings = CatalogSyncSettings(), clock: any OutboxClock,
        makeSyncer: @escaping SyncerFactory,
        main: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        onUpdate: @escaping @Sendable (CatalogServiceUpdate) -> Void
    ) {
        let condition = ConditionLock()
        self.condition = condition
        worker = WorkerThread(name: "faro-catalog", condition: condition, clock: clock)
        self.settings = settings
        self.clock = clock
        self.factory = makeSyncer
        self.main = main
        self.onUpdate = onUpdate
    }

    /// The catalog as last loaded (any thread).
    public var index: CatalogIndex { condition.withLock { currentIndex } }

    /// The backend's reachability as last reported (any thread).
    public var reachability: CatalogReachability { condition.withLock { currentReachability } }

    /// Starts the worker: it loads the local catalog, reports it, and pulls (once).
    public func start() {
        worker.start(starting: { triggers.append(.start) }, run: { [self] in threadMain() })
    }

    /// Stops the worker after the request in flight; waits up to `timeout` seconds.
    public func stop(timeout: Double = 10) { worker.stop(timeout: timeout) }

    /// GIO reports the network back: pull now (failures are forgotten).
    public func networkAvailable() { add(.networkAvailable) }

    /// The machine woke up: what fell due while it slept (the periodic pull, a retry) runs now (docs/monitoring.md).
    public func resumedFromSleep() { worker.wake() }

    /// A beacon was sighted that the catalog does not name: ask the backend soon (rate-limited and retried with
    /// backoff by the scheduler). Cheap for beacons the catalog knows, so it may be called for every sighting.
    public func unknownBeaconSighted(_ identity: BeaconIdentity) {
        let wanted = condition.withLock { () -> Bool in
            !currentIndex.contains(identity) && pendingUnknown.insert(identity).inserted
        }
        if wanted { add(.unknownBeacon(identity)) }
    }

    /// The backend URL or app key changed: everything is asked again of the new syncer.
    public func configurationChanged(makeSyncer: @escaping SyncerFactory) {
        condition.withLock {
            factory = makeSyncer
            factoryChanged = true
            triggers.append(.configurationChanged)
            worker.signal()
        }
    }

    /// Waits until the worker has nothing left to do now (every trigger handled, nothing due on the clock), or
    /// `timeout` real seconds pass; false on timeout. For tests and the terminal, instead of sleeping.
    @discardableResult
    public func waitUntilSettled(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !(worker.isIdle && triggers.isEmpty) {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    private func add(_ trigger: CatalogSyncScheduler.Trigger) {
        condition.withLock {
            triggers.append(trigger)
            worker.signal()
        }
    }

    private func threadMain() {
        var scheduler = CatalogSyncScheduler(settings: settings)
        var syncer: (any CatalogSyncing)?
        var loaded = false
        /// The factory threw: it is asked again when the scheduler's retry comes.
        var factoryFailed = false
        while worker.beginPass() {
            let (pending, newFactory) = condition.withLock {
                () -> ([CatalogSyncScheduler.Trigger], SyncerFactory?) in
                let taken = triggers
                triggers.removeAll()
                pendingUnknown.removeAll()
                let changed = factoryChanged ? factory : nil
                factoryChanged = false
                return (taken, changed)
            }
            if newFactory != nil {
                syncer = nil
                loaded = false
                factoryFailed = false
            }
            let now = clock.now()
            for trigger in pending { scheduler.handle(trigger, at: now) }
            if syncer == nil, !factoryFailed || scheduler.nextAction(at: now) != nil {
                let factory = condition.withLock { self.factory }
                do {
                    syncer = try factory()
                    factoryFailed = false
                } catch {
                    factoryFailed = true
                    scheduler.begin(.pull, at: now)
                    scheduler.finished(.unreachable("\(error)"), at: clock.now(), isKnown: { _ in false })
                    report(reachability: scheduler.reachability)
                }
            }
            if let syncer, !loaded {
                loaded = true
                publish(CatalogIndex(syncer.localPlaces()))
            }
            if let syncer, let action = scheduler.nextAction(at: clock.now()) {
                scheduler.begin(action, at: clock.now())
                let outcome: CatalogAttemptOutcome
                switch action {
                case .pull: outcome = syncer.pull()
                case .lookUp(let identities): outcome = syncer.lookUp(identities)
                }
                var index = self.index
                if CatalogService.mayHaveChanged(outcome) {
                    index = CatalogIndex(syncer.localPlaces())
                    publish(index)
                }
                scheduler.finished(outcome, at: clock.now(), isKnown: index.contains)
                report(reachability: scheduler.reachability)
                continue
            }
            let wake = syncer != nil || factoryFailed ? scheduler.nextWake : nil
            // A long wait (the next periodic pull, a backoff): the kept-alive connection goes, and with the last
            // libcurl handle libcurl itself is closed after a while (FaroCurl's CurlRuntime).
            if let syncer, (wake ?? .infinity) - clock.now() > IdleConnection.keepFor {
                syncer.closeConnections()
            }
            worker.sleep(until: wake)
        }
    }

    static func mayHaveChanged(_ outcome: CatalogAttemptOutcome) -> Bool {
        switch outcome {
        case .pulled(let report): return report.changedAnything
        case .lookedUp: return true
        case .listingRefused, .keyRefused, .unreachable, .misconfigured: return false
        }
    }

    private func publish(_ index: CatalogIndex) {
        let changed = condition.withLock { () -> Bool in
            guard index != currentIndex else { return false }
            currentIndex = index
            return true
        }
        guard changed else { return }
        let onUpdate = onUpdate
        main { onUpdate(.catalogChanged(index)) }
    }

    private func report(reachability: CatalogReachability) {
        let changed = condition.withLock { () -> Bool in
            guard reachability != currentReachability else { return false }
            currentReachability = reachability
            return true
        }
        guard changed else { return }
        let onUpdate = onUpdate
        main { onUpdate(.reachability(reachability)) }
    }
}
