/// Settings of region monitoring (CoreLocation/AltBeacon semantics).
public struct RegionMonitorConfiguration: Sendable {
    /// Unseen for this long (seconds), a region is exited.
    public var exitPeriod: Double
    /// An entry this soon (seconds) after the last announced entry of the same region is not announced (an entry
    /// whose announcement was withdrawn does not count).
    public var coolDown: Double

    /// The defaults (docs/monitoring.md); the `exit-period` and `cool-down` settings start from these.
    public static let defaultExitPeriod: Double = 30
    public static let defaultCoolDown: Double = 600

    public init(exitPeriod: Double = defaultExitPeriod, coolDown: Double = defaultCoolDown) {
        self.exitPeriod = exitPeriod
        self.coolDown = coolDown
    }
}

/// Watches regions: enter on the first sighting, exit after the exit period without one, cool-down on re-entries.
/// Knows nothing of notifications or UI; the caller passes time in and receives events.
public struct RegionMonitor {
    public let configuration: RegionMonitorConfiguration
    public private(set) var regions: [Region]

    struct State {
        var inside = false
        var lastSeen = -Double.infinity
        var lastAnnounced: Double?
        /// The announced entry before `lastAnnounced` (the cool-down counts from it again when the last one is
        /// withdrawn).
        var announcedBefore: Double?
    }

    private var states: [State]
    /// Which regions each beacon identity belongs to, worked out once per identity. A cache: past
    /// `membershipLimit` identities it starts afresh, so beacons that passed by once do not stay in it for good.
    private var membership: [BeaconIdentity: [Int]] = [:]
    /// Identities whose membership is kept at most.
    public static let membershipLimit = 1024
    /// Identities whose membership is cached now.
    public var cachedIdentities: Int { membership.count }
    /// Each region's index by identifier (a catalog of thousands of places is added one region at a time).
    private var indexByIdentifier: [String: Int] = [:]

    public init(regions: [Region], configuration: RegionMonitorConfiguration = RegionMonitorConfiguration()) {
        self.regions = []
        self.configuration = configuration
        self.states = []
        for region in regions { add(region) }
    }

    /// Starts watching one more region (a place the catalog just named). A region with the same identifier is
    /// not added twice.
    public mutating func add(_ region: Region) {
        guard indexByIdentifier[region.identifier] == nil else { return }
        indexByIdentifier[region.identifier] = regions.count
        regions.append(region)
        states.append(State())
        // Only identities the new region contains change membership.
        let joining = membership.keys.filter { region.contains($0) }
        for identity in joining { membership[identity, default: []].append(regions.count - 1) }
    }

    /// Whether the monitor currently considers itself inside the region with this identifier.
    public func isInside(_ identifier: String) -> Bool {
        indexByIdentifier[identifier].map { states[$0].inside } ?? false
    }

    /// Records a sighting; calls `emit` for each region it enters.
    public mutating func observe(_ beacon: BeaconIdentity, at time: Double, emit: (RegionEvent) -> Void) {
        let members: [Int]
        if let known = membership[beacon] {
            members = known
        } else {
            members = regions.indices.filter { regions[$0].contains(beacon) }
            if membership.count >= Self.membershipLimit { membership.removeAll() }
            membership[beacon] = members
        }
        for r in members {
            if time > states[r].lastSeen { states[r].lastSeen = time }
            guard !states[r].inside else { continue }
            states[r].inside = true
            let announce = states[r].lastAnnounced.map { time - $0 >= configuration.coolDown } ?? true
            if announce {
                states[r].announcedBefore = states[r].lastAnnounced
                states[r].lastAnnounced = time
            }
            emit(RegionEvent(kind: .enter, region: regions[r], time: time, beacon: beacon, announce: announce))
        }
    }

    /// The entry of the region `identifier` announced at `time` was not shown after all (the caller's rule left it
    /// out): the cool-down counts from the announced entry before it again, so the next entry is not silenced by
    /// one the user never saw. Nothing changes when a later entry was announced since.
    public mutating func withdrawAnnouncement(of identifier: String, at time: Double) {
        guard let r = indexByIdentifier[identifier], states[r].lastAnnounced == time else { return }
        states[r].lastAnnounced = states[r].announcedBefore
    }

    /// Advances to `time`; calls `emit` for each region exited.
    public mutating func tick(at time: Double, emit: (RegionEvent) -> Void) {
        for r in regions.indices where states[r].inside && time - states[r].lastSeen > configuration.exitPeriod {
            states[r].inside = false
            emit(RegionEvent(kind: .exit, region: regions[r], time: time, beacon: nil, announce: true))
        }
    }

    /// Convenience for tests and scripts: the events of one sighting as an array.
    public mutating func observe(_ beacon: BeaconIdentity, at time: Double) -> [RegionEvent] {
        var out: [RegionEvent] = []
        observe(beacon, at: time) { out.append($0) }
        return out
    }

    /// Convenience: the events of one tick as an array.
    public mutating func tick(at time: Double) -> [RegionEvent] {
        var out: [RegionEvent] = []
        tick(at: time) { out.append($0) }
        return out
    }
}
