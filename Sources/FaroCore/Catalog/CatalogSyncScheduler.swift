/// When the catalog is synced, as pure rules on an injected time: a pull at start, every `period`, when the network
/// comes back, and soon after a beacon the catalog does not know is sighted (rate-limited, and asked again with
/// backoff while it stays unknown); after a failure, retries with backoff; where listing is refused (403/405), the
/// lookup by major/minor instead, retried once the backend is reachable; after the app key was refused, nothing
/// until the configuration changes (or a period passes). The catalog service runs the actions; tests drive it with
/// plain numbers.
public struct CatalogSyncScheduler: Sendable {
    /// What to do now.
    public enum Action: Equatable, Sendable {
        case pull
        case lookUp([BeaconIdentity])
    }

    /// Why a sync may be needed.
    public enum Trigger: Equatable, Sendable {
        case start
        case networkAvailable
        case unknownBeacon(BeaconIdentity)
        /// The backend URL or app key changed: forget every failure and start again.
        case configurationChanged
    }

    /// An unknown beacon waiting for the catalog to name it.
    struct Unknown: Sendable {
        var attempts = 0
        /// When a sighting of it (or, in lookup mode, a lookup) may ask again.
        var nextAt: Double
        var since: Double
    }

    public let settings: CatalogSyncSettings
    public private(set) var reachability = CatalogReachability.unknown
    /// False once the backend refused listing: lookups by major/minor stand in for pulls.
    public private(set) var listingAllowed = true
    private var pullDue: Double?
    private var failures = 0
    /// While failing: no attempt before this.
    private var retryAt = -Double.infinity
    private var lastPull = -Double.infinity
    private var unknown: [BeaconIdentity: Unknown] = [:]
    private var waitingForKey = false
    private var inFlight: Action?
    /// A trigger that came while an attempt was running and should bring the next one forward.
    private var retryAfterFlight = false
    private var flightStart = -Double.infinity
    private var random: SplitMix64

    public init(settings: CatalogSyncSettings = CatalogSyncSettings(), seed: UInt64 = 0x5EED) {
        self.settings = settings
        random = SplitMix64(seed: seed)
    }

    /// The unknown beacons still waiting (for tests and the status line).
    public var unknownBeacons: Set<BeaconIdentity> { Set(unknown.keys) }

    /// Records a trigger at time `now`.
    public mutating func handle(_ trigger: Trigger, at now: Double) {
        switch trigger {
        case .start:
            pullDue = now
        case .configurationChanged:
            failures = 0
            retryAt = -.infinity
            waitingForKey = false
            listingAllowed = true
            reachability = .unknown
            for key in unknown.keys { unknown[key]?.nextAt = now }
            pullDue = now
            if inFlight != nil { retryAfterFlight = true }
        case .networkAvailable:
            guard !waitingForKey else { return }
            failures = 0
            retryAt = -.infinity
            // Listing: pull now. Lookups: the beacons not asked yet are due now.
            if listingAllowed { pullDue = now }
            for key in unknown.keys where unknown[key].map({ $0.attempts == 0 }) ?? false { unknown[key]?.nextAt = now }
            if inFlight != nil { retryAfterFlight = true }
        case .unknownBeacon(let identity):
            if let known = unknown[identity], known.nextAt > now { return }  // asked recently: rate-limited
            if unknown[identity] == nil {
                if unknown.count >= settings.maxUnknownBeacons,
                    let oldest = unknown.min(by: { $0.value.since < $1.value.since })?.key
                {
                    unknown[oldest] = nil
                }
                unknown[identity] = Unknown(nextAt: now, since: now)
            }
            guard listingAllowed, !waitingForKey else { return }
            let soonest = max(now, lastPull + settings.sightingInterval, retryAt)
            pullDue = min(pullDue ?? .infinity, soonest)
        }
    }

    /// The action due at `now`, if any. Call `begin` before running it.
    public func nextAction(at now: Double) -> Action? {
        guard inFlight == nil else { return nil }
        if let due = pullDue, due <= now { return .pull }
        guard !listingAllowed, !waitingForKey, now >= retryAt else { return nil }
        let due = unknown.filter { $0.value.nextAt <= now }.sorted { $0.value.since < $1.value.since }
            .prefix(settings.lookupBatch).map(\.key)
        return due.isEmpty ? nil : .lookUp(due)
    }

    /// When `nextAction` may have something to do next (nil: only a trigger can start something).
    public var nextWake: Double? {
        guard inFlight == nil else { return nil }
        var wake = pullDue
        if !listingAllowed, !waitingForKey, let soonest = unknown.values.map(\.nextAt).min() {
            wake = min(wake ?? .infinity, max(soonest, retryAt))
        }
        return wake
    }

    /// The action starts running at `now`.
    public mutating func begin(_ action: Action, at now: Double) {
        inFlight = action
        flightStart = now
        retryAfterFlight = false
        if action == .pull { pullDue = nil }
    }

    /// The running action ended with `outcome` at `now`; `isKnown` says which identities the local catalog names
    /// now (they stop waiting).
    public mutating func finished(
        _ outcome: CatalogAttemptOutcome, at now: Double, isKnown: (BeaconIdentity) -> Bool
    ) {
        let action = inFlight
        inFlight = nil
        for key in unknown.keys where isKnown(key) { unknown[key] = nil }
        switch outcome {
        case .pulled:
            succeeded(at: now)
            lastPull = now
            pullDue = now + settings.period
            // Beacons first sighted while the pull ran may be in rows it had already passed: ask once more soon.
            for (key, entry) in unknown {
                if entry.since <= flightStart {
                    askedInVain(key, at: now)
                } else {
                    pullDue = min(pullDue ?? .infinity, now + settings.sightingInterval)
                }
            }
        case .lookedUp(_, let missing):
            succeeded(at: now)
            for key in missing where unknown[key] != nil { askedInVain(key, at: now) }
        case .listingRefused:
            succeeded(at: now)
            listingAllowed = false
            lastPull = now
            pullDue = now + settings.period  // ask again later whether listing is allowed now
        case .keyRefused(let reason):
            reachability = .appKeyRefused(reason: reason)
            waitingForKey = true
            pullDue = now + settings.period
        case .unreachable(let reason):
            failures += 1
            reachability = .unreachable(reason: reason)
            retryAt = now + settings.retry.delay(forAttempt: failures, random: &random)
            if listingAllowed || action == .pull {
                pullDue = retryAt
            }
        case .misconfigured(let reason):
            reachability = .unreachable(reason: reason)
            failures = 0
            retryAt = now + settings.period
            pullDue = retryAt
        }
        if retryAfterFlight {
            retryAfterFlight = false
            if case .pulled = outcome {} else if case .lookedUp = outcome {} else { pullDue = now }
        }
    }

    private mutating func succeeded(at now: Double) {
        reachability = .reachable
        failures = 0
        retryAt = -.infinity
        waitingForKey = false
    }

    private mutating func askedInVain(_ identity: BeaconIdentity, at now: Double) {
        guard var entry = unknown[identity] else { return }
        entry.attempts += 1
        entry.nextAt = now + settings.unknownBeaconBackoff.delay(forAttempt: entry.attempts, random: &random)
        unknown[identity] = entry
    }
}
