import FaroCore

/// What the beacon session reports, in the order it happened: the one stream every front end (the window, `faro
/// scan`, `faro range`) reads.
public enum BeaconSessionUpdate: Sendable, Equatable {
    /// A region was entered (at the sighting that caused it) or left (at the tick that noticed the exit period had
    /// passed).
    case region(RegionEvent)
    /// The beacons in range after a tick, nearest first, with what the catalog says about them.
    case ranged(RangedBeacons)
}

/// One tick's result: the ranging snapshot and the catalog that names its beacons, so that a consumer can name
/// rows without asking anyone else.
public struct RangedBeacons: Sendable, Equatable {
    public var snapshot: RangingSnapshot
    /// The catalog the session's regions come from.
    public var catalog: CatalogIndex

    public init(snapshot: RangingSnapshot, catalog: CatalogIndex) {
        self.snapshot = snapshot
        self.catalog = catalog
    }

    /// How many beacons in range the catalog knows (the tray's count).
    public var cataloguedInRange: Int {
        snapshot.beacons.reduce(0) { $0 + (catalog.contains($1.identity) ? 1 : 0) }
    }
}

/// What the session knows of one beacon, for its page (docs/beacon-page.md).
public struct BeaconDetails: Sendable {
    public var identity: BeaconIdentity
    /// The beacon at the last tick; nil when it is not in range.
    public var ranged: RangedBeacon?
    /// Its kept readings; nil when it is not in range or none are kept.
    public var history: ReadingHistory?
    /// The calibrations distances were computed with.
    public var calibration: PowerCalibration
    /// The source's clock at the last tick (readings' and `ranged`'s times are on it).
    public var now: Double

    public init(
        identity: BeaconIdentity, ranged: RangedBeacon?, history: ReadingHistory?, calibration: PowerCalibration,
        now: Double
    ) {
        self.identity = identity
        self.ranged = ranged
        self.history = history
        self.calibration = calibration
        self.now = now
    }

    /// The readings, oldest first.
    public var readings: [BeaconReading] { history?.readings ?? [] }

    /// Readings per minute over the last minute before `now` (the source's clock).
    public func readingsPerMinute(now: Double) -> Int { readings.filter { $0.time > now - 60 }.count }
}
