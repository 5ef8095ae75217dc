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

/// One tick's result: the ranging snapshot and the catalog's places for the beacons in it (those the catalog
/// knows), so that a consumer can name rows without asking anyone else.
public struct RangedBeacons: Sendable, Equatable {
    public var snapshot: RangingSnapshot
    /// Every catalogued place the session knows, by identity (the session's regions come from the same table).
    public var places: [BeaconIdentity: CatalogPlace]

    public init(snapshot: RangingSnapshot, places: [BeaconIdentity: CatalogPlace]) {
        self.snapshot = snapshot
        self.places = places
    }

    /// How many beacons in range the catalog knows (the tray's count).
    public var cataloguedInRange: Int {
        snapshot.beacons.reduce(0) { $0 + (places[$1.identity] == nil ? 0 : 1) }
    }
}
