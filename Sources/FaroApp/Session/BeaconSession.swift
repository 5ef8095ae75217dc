import FaroCore

/// Settings of a beacon session: which sightings count, ranging, and region monitoring.
public struct BeaconSessionConfiguration: Sendable {
    public var filter: SightingFilter
    public var ranging: RangingConfiguration
    /// How RSSI becomes metres (Faro's tuned default unless a test needs exact figures).
    public var strategy: DistanceStrategy<KalmanRSSIFilter>
    public var regions: RegionMonitorConfiguration
    /// The calibrations and adapter offset distances start with (`BeaconSession.setCalibration` changes them).
    public var calibration: PowerCalibration

    public init(
        filter: SightingFilter = SightingFilter(), ranging: RangingConfiguration = RangingConfiguration(),
        strategy: DistanceStrategy<KalmanRSSIFilter> = .faroDefault,
        regions: RegionMonitorConfiguration = RegionMonitorConfiguration(),
        calibration: PowerCalibration = .none
    ) {
        self.filter = filter
        self.ranging = ranging
        self.strategy = strategy
        self.regions = regions
        self.calibration = calibration
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
    /// The catalog the regions come from (it also names the ranged beacons).
    public private(set) var catalog = CatalogIndex()
    /// Whether some catalogued place names no UUID (it becomes a region when a beacon of its major/minor is seen).
    private var catalogHasUUIDlessRows = false
    /// Beacons already checked against such rows since the catalog last changed (at most `checkedLimit`: past it
    /// the set starts afresh, so beacons that passed by once do not stay in it for good).
    private var checkedForUUIDlessRows = Set<BeaconIdentity>()
    static let checkedLimit = 1024
    /// How many beacons are remembered as checked against the catalog's rows without a UUID.
    public var checkedBeacons: Int { checkedForUUIDlessRows.count }
    /// The last tick's snapshot (empty before the first tick and after a reset).
    public private(set) var lastSnapshot = RangingSnapshot(time: 0, beacons: [])
    public let configuration: BeaconSessionConfiguration

    public init(configuration: BeaconSessionConfiguration = BeaconSessionConfiguration()) {
        self.configuration = configuration
        pipeline = BeaconSession.makePipeline(configuration)
    }

    private static func makePipeline(_ configuration: BeaconSessionConfiguration) -> BeaconPipeline<KalmanRSSIFilter> {
        var ranging = RangingEngine(configuration: configuration.ranging, strategy: configuration.strategy)
        ranging.calibration = configuration.calibration
        return BeaconPipeline(
            filter: configuration.filter, ranging: ranging,
            regions: RegionMonitor(regions: [], configuration: configuration.regions))
    }

    /// The calibrations and adapter offset in use.
    public var calibration: PowerCalibration { pipeline.ranging.calibration }

    /// New calibrations or adapter offset (the user calibrated a beacon or reset one): used from the next tick on,
    /// and kept across a reset.
    public mutating func setCalibration(_ calibration: PowerCalibration) {
        pipeline.ranging.calibration = calibration
    }

    /// Whether every reading is also collected for `takeCollected` (the terminal's `--csv`).
    public mutating func collectReadings(_ on: Bool) { pipeline.ranging.collectsReadings = on }

    /// The readings collected since the last call, in order, with their beacon.
    public mutating func takeCollected() -> [(identity: BeaconIdentity, reading: BeaconReading)] {
        defer { pipeline.ranging.collected.removeAll(keepingCapacity: true) }
        return pipeline.ranging.collected
    }

    /// A beacon's kept readings (see `RangingConfiguration.readings`); nil when it is not in range.
    public func readings(of identity: BeaconIdentity) -> ReadingHistory? { pipeline.ranging.readings(of: identity) }

    /// How many beacons are in range (tracked by ranging) right now.
    public var inRange: Int { pipeline.ranging.count }

    /// One sighting; an entry it causes is emitted at once.
    public mutating func observe(_ sighting: BeaconSighting, emit: (BeaconSessionUpdate) -> Void) {
        if catalogHasUUIDlessRows, checkedForUUIDlessRows.count >= Self.checkedLimit,
            !checkedForUUIDlessRows.contains(sighting.beacon.identity)
        {
            checkedForUUIDlessRows.removeAll()
        }
        if catalogHasUUIDlessRows, checkedForUUIDlessRows.insert(sighting.beacon.identity).inserted,
            let region = catalog.region(for: sighting.beacon.identity)
        {
            pipeline.regions.add(region)
        }
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
        // Let go of the last snapshot first: its beacons share their history buffers with the engine's, so while
        // it is held every beacon's history is copied when the tick appends to it.
        lastSnapshot = RangingSnapshot(time: 0, beacons: [])
        let snapshot = pipeline.tick(at: time) { emit(.region($0)) }
        lastSnapshot = snapshot
        emit(.ranged(current))
        return snapshot
    }

    /// The last tick's beacons with today's catalog (to show the list again after the catalog changed).
    public var current: RangedBeacons { RangedBeacons(snapshot: lastSnapshot, catalog: catalog) }

    /// The catalog changed: each catalogued place is a region (`CatalogIndex.regions`). Regions already watched keep their state (a place
    /// the user is in stays entered); a place newly learnt is entered at the next sighting of its beacon, which
    /// names it and raises its zone notification while the user is still there.
    public mutating func setCatalog(_ catalog: CatalogIndex) {
        self.catalog = catalog
        for region in catalog.regions { pipeline.regions.add(region) }
        catalogHasUUIDlessRows = catalog.places.contains { $0.anyUUID }
        checkedForUUIDlessRows.removeAll()
    }

    /// The entry of region `identifier` announced at `time` raised no notification: its cool-down does not start
    /// there (`RegionMonitor.withdrawAnnouncement`).
    public mutating func withdrawAnnouncement(of identifier: String, at time: Double) {
        pipeline.regions.withdrawAnnouncement(of: identifier, at: time)
    }

    /// Forgets every beacon and every region's state (scanning stopped): the next sighting is an entry again,
    /// announced only outside the cool-down. The places, the calibration and whether readings are collected are
    /// kept.
    public mutating func reset() {
        let announced = pipeline.regions
        let calibration = pipeline.ranging.calibration
        let collects = pipeline.ranging.collectsReadings
        pipeline = BeaconSession.makePipeline(configuration)
        pipeline.ranging.calibration = calibration
        pipeline.ranging.collectsReadings = collects
        pipeline.regions = announced
        pipeline.regions.tick(at: .infinity) { _ in }
        lastSnapshot = RangingSnapshot(time: 0, beacons: [])
        checkedForUUIDlessRows.removeAll()
    }
}
