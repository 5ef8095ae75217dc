import FaroCore

/// Settings of a beacon session: which sightings count, ranging, and region monitoring.
public struct BeaconSessionConfiguration: Sendable {
    public var filter: SightingFilter
    public var ranging: RangingConfiguration
    /// How RSSI becomes metres (Faro's tuned default unless a test needs exact figures).
    public var strategy: DistanceStrategy<KalmanRSSIFilter>
    public var regions: RegionMonitorConfiguration

    public init(
        filter: SightingFilter = SightingFilter(), ranging: RangingConfiguration = RangingConfiguration(),
        strategy: DistanceStrategy<KalmanRSSIFilter> = .faroDefault,
        regions: RegionMonitorConfiguration = RegionMonitorConfiguration()
    ) {
        self.filter = filter
        self.ranging = ranging
        self.strategy = strategy
        self.regions = regions
    }
}

/// The path every sighting takes once a source has decoded it, in every front end: filter → ranging → regions →
/// `BeaconSessionUpdate`s. Built on `BeaconPipeline`; the catalog's places become its regions, so a catalogued
/// place is entered (and named) even when the first sighting happens offline.
///
/// Synchronous and single-threaded: `faro range` and `faro scan` drive it on their own thread;
/// `BeaconSessionRunner` drives it on a worker thread for the window. Time is always passed in.
public struct BeaconSession {
    public private(set) var pipeline: BeaconPipeline<KalmanRSSIFilter>
    public private(set) var places: [BeaconIdentity: CatalogPlace] = [:]
    /// The last tick's snapshot (empty before the first tick and after a reset).
    public private(set) var lastSnapshot = RangingSnapshot(time: 0, beacons: [])
    public let configuration: BeaconSessionConfiguration

    public init(configuration: BeaconSessionConfiguration = BeaconSessionConfiguration()) {
        self.configuration = configuration
        pipeline = BeaconSession.makePipeline(configuration)
    }

    private static func makePipeline(_ configuration: BeaconSessionConfiguration) -> BeaconPipeline<KalmanRSSIFilter> {
        BeaconPipeline(
            filter: configuration.filter,
            ranging: RangingEngine(configuration: configuration.ranging, strategy: configuration.strategy),
            regions: RegionMonitor(regions: [], configuration: configuration.regions))
    }

    /// How many beacons are in range (tracked by ranging) right now.
    public var inRange: Int { pipeline.ranging.count }

    /// One sighting; an entry it causes is emitted at once.
    public mutating func observe(_ sighting: BeaconSighting, emit: (BeaconSessionUpdate) -> Void) {
        pipeline.accept(sighting.beacon, address: sighting.address, rssi: sighting.rssi, at: sighting.time) {
            emit(.region($0))
        }
    }

    /// One recorded advertisement of any kind (`faro range`); returns why it held no iBeacon, or nil.
    public mutating func ingest(_ record: ReplayRecord, emit: (BeaconSessionUpdate) -> Void) -> DecodeFailure? {
        pipeline.ingest(record) { emit(.region($0)) }
    }

    /// Advances to `time` on the source's clock: exits, then the ranged beacons.
    @discardableResult
    public mutating func tick(at time: Double, emit: (BeaconSessionUpdate) -> Void) -> RangingSnapshot {
        let snapshot = pipeline.tick(at: time) { emit(.region($0)) }
        lastSnapshot = snapshot
        emit(.ranged(current))
        return snapshot
    }

    /// The last tick's beacons with today's places (to show the list again after the catalog changed).
    public var current: RangedBeacons { RangedBeacons(snapshot: lastSnapshot, places: places) }

    /// The catalog changed: each catalogued place is a region. Regions already watched keep their state (a place
    /// the user is in stays entered); a place newly learnt is entered at the next sighting of its beacon, which
    /// names it and raises its zone notification while the user is still there.
    public mutating func setPlaces(_ places: [BeaconIdentity: CatalogPlace]) {
        self.places = places
        for identity in places.keys.sorted() { pipeline.regions.add(CatalogRegions.region(for: identity)) }
    }

    /// Forgets every beacon and every region's state (scanning stopped): the next sighting is an entry again,
    /// announced only outside the cool-down. The places are kept.
    public mutating func reset() {
        let announced = pipeline.regions
        pipeline = BeaconSession.makePipeline(configuration)
        pipeline.regions = announced
        pipeline.regions.tick(at: .infinity) { _ in }
        lastSnapshot = RangingSnapshot(time: 0, beacons: [])
    }
}

/// The rules that turn the catalog into monitoring regions: one region per catalogued beacon identity.
public enum CatalogRegions {
    /// The region watching exactly one catalogued beacon.
    public static func region(for identity: BeaconIdentity) -> Region {
        Region(
            identifier: identifier(for: identity), uuid: identity.uuid, major: identity.major,
            minor: identity.minor)
    }

    /// `uuid/major/minor`: stable across restarts, so a region is never added twice.
    public static func identifier(for identity: BeaconIdentity) -> String {
        "\(identity.uuid)/\(identity.major)/\(identity.minor)"
    }
}
