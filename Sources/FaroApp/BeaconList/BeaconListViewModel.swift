import FaroCore

/// One row of the beacon list, ready to show: every string already translated and formatted.
public struct BeaconRowModel: Equatable, Sendable {
    public var identity: BeaconIdentity
    /// The site title for catalogued beacons, or the beacon's identity.
    public var title: String
    /// The business for catalogued beacons, or a hint that the beacon is not in the catalog.
    public var subtitle: String
    /// `DistanceText.approximate` of the distance.
    public var distanceText: String
    /// "inmediato" / "cerca" / "lejos" / "desconocido" in Spanish.
    public var proximityText: String
    public var proximity: Proximity
    /// Distance over the last ticks, oldest first (NaN = unknown), for the sparkline.
    public var history: [Float]
    /// Which way the distance went over the last ten ticks, in words ("Acercándose"), for the sparkline's
    /// accessible description (`BeaconTrend`).
    public var trendText: String
    public var isCatalogued: Bool
    /// The accessible name of the row: everything a screen reader should say about it.
    public var accessibleName: String
}

/// Which way a beacon's distance went over its last ten ticks (`BeaconListBuilder.trend`).
public enum BeaconTrend: Equatable, Sendable {
    case closer
    case away
    case steady
}

/// The beacon list's state: rows nearest first, and an empty-state message when there are none. Plain data:
/// `BeaconListBuilder` makes it.
public struct BeaconListViewModel: Equatable, Sendable {
    public var rows: [BeaconRowModel]
    /// Shown instead of the list when there are no rows.
    public var emptyTitle: String
    public var emptyDetail: String

    public init(rows: [BeaconRowModel], emptyTitle: String, emptyDetail: String) {
        self.rows = rows
        self.emptyTitle = emptyTitle
        self.emptyDetail = emptyDetail
    }
}
