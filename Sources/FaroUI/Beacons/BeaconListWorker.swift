internal import CShim.System
import FaroApp
import FaroCore
import FaroGLib

/// Runs the beacon list's share of the 1 Hz tick (`BeaconListTicker`: ranging and the rows) on a thread of its
/// own. With a thousand beacons that is several milliseconds a second that the GTK main loop no longer spends in
/// one go; the main thread only hands over what it heard and gets back a finished `BeaconListUpdate`.
///
/// - Sightings are queued under a lock and taken by the next job: no wake-up per advertisement.
/// - Requests that pile up while the thread is busy are merged into one: the latest inputs win, a pending tick
///   moves to the latest time, a reset drops what came before it.
/// - Results come back on the main thread through an idle callback, in order; one produced before the latest
///   `reset()` is dropped, so a stopped scanner's rows never reappear.
/// - The thread runs at a lower priority (nice 10): on a busy machine the main loop gets the core first.
final class BeaconListWorker: @unchecked Sendable {
    struct Inputs: Sendable {
        var catalog: [BeaconIdentity: CatalogPlace]
        var state: ScannerState
        /// Whether to build the list (only while the window is open); the counts come either way.
        var list: Bool
    }

    private struct Request {
        var reset = false
        var tickAt: Double?
        var inputs: Inputs?
    }

    private let condition = ConditionLock()
    // Guarded by `condition`.
    private var sightings: [BeaconSighting] = []
    private var request: Request?
    private var epoch = 0
    private var running = false
    private var stopping = false
    // Only the worker thread touches these once it runs.
    private var ticker: BeaconListTicker<KalmanRSSIFilter>
    /// The last two results handed to the main thread, kept so that the main thread, replacing one list with the
    /// next, never holds the last reference to the old one: a thousand rows' strings and histories are freed
    /// here, a tick later, instead of in the main loop.
    private var delivered: [BeaconListTickResult] = []
    private let onResult: @MainActor @Sendable (BeaconListTickResult) -> Void

    init(localize: Localizer, onResult: @escaping @MainActor @Sendable (BeaconListTickResult) -> Void) {
        ticker = BeaconListTicker(localize: localize) { RangingEngine(strategy: .faroDefault) }
        self.onResult = onResult
    }

    /// Queues a sighting for the next job.
    func observe(_ sighting: BeaconSighting) {
        condition.lock()
        sightings.append(sighting)
        condition.unlock()
    }

    /// Advances ranging to `time` and reports the result built with `inputs`.
    func tick(at time: Double, inputs: Inputs) {
        submit { request in
            request.tickAt = max(request.tickAt ?? time, time)
            request.inputs = inputs
        }
    }

    /// Reports the list again without ticking (the catalog or the scanner's state changed, the window opened).
    func refresh(_ inputs: Inputs) {
        submit { $0.inputs = inputs }
    }

    /// Forgets every beacon: the queued sightings now, the engine's state in the next job.
    func reset() {
        submit { request in
            self.sightings.removeAll()
            self.epoch += 1
            request.reset = true
            request.tickAt = nil
        }
    }

    /// Stops the thread after the job in hand (the application is quitting).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func submit(_ change: (inout Request) -> Void) {
        condition.lock()
        var merged = request ?? Request()
        change(&merged)
        request = merged
        if !running, !stopping {
            running = true
            DetachedThread.start(name: "faro-ranging") { [self] in self.threadMain() }
        }
        condition.signal()
        condition.unlock()
    }

    private func threadMain() {
        _ = faro_set_thread_nice(10)
        while true {
            condition.lock()
            while request == nil, !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let job = request ?? Request()
            request = nil
            var heard: [BeaconSighting] = []
            swap(&heard, &sightings)
            let jobEpoch = epoch
            condition.unlock()

            if job.reset { ticker.reset() }
            ticker.observe(heard)
            if let time = job.tickAt { ticker.tick(at: time) }
            guard let inputs = job.inputs else { continue }
            let result = ticker.result(catalog: inputs.catalog, state: inputs.state, list: inputs.list)
            if result.list != nil {
                delivered.append(result)
                if delivered.count > 2 { delivered.removeFirst() }
            }
            let onResult = self.onResult
            MainThread.run { [self] in
                guard self.isCurrent(jobEpoch) else { return }
                onResult(result)
            }
        }
    }

    private func isCurrent(_ jobEpoch: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return jobEpoch == epoch
    }
}
