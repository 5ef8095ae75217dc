import FaroCore
import FoundationEssentials

/// One row of the beacon list, ready to show: every string already translated and formatted.
public struct BeaconRowModel: Equatable, Sendable {
    public var identity: BeaconIdentity
    /// The site title for catalogued beacons, or the beacon's identity.
    public var title: String
    /// The business for catalogued beacons, or a hint that the beacon is not in the catalog.
    public var subtitle: String
    /// "≈ 2.4 m", or "?" when the distance is unknown.
    public var distanceText: String
    /// "inmediato" / "cerca" / "lejos" / "desconocido" in Spanish.
    public var proximityText: String
    public var proximity: Proximity
    /// Distance over the last ticks, oldest first (NaN = unknown), for the sparkline.
    public var history: [Float]
    public var isCatalogued: Bool
    /// The accessible name of the row: everything a screen reader should say about it.
    public var accessibleName: String
}

/// Why the list is empty, so the empty state can say so.
public enum ScannerState: Equatable, Sendable {
    case scanning
    case bluetoothOff
    case noAdapter
    case paused
    case unavailable(String)
}

/// The beacon list's state: rows nearest first, and an empty-state message when there are none.
public struct BeaconListViewModel: Equatable, Sendable {
    public var rows: [BeaconRowModel]
    /// Shown instead of the list when there are no rows.
    public var emptyTitle: String
    public var emptyDetail: String

    public init(snapshot: RangingSnapshot, catalog: [BeaconIdentity: CatalogPlace], state: ScannerState,
                localize: Localizer) {
        // Translate the few shared words once per tick, not once per row (the list may hold a thousand beacons).
        var words: [Proximity: String] = [:]
        for p in Proximity.allCases { words[p] = BeaconListViewModel.proximityText(p, localize: localize) }
        let unknown = localize("Unknown beacon %@")
        rows = snapshot.beacons.map {
            BeaconListViewModel.row($0, entry: catalog[$0.identity], proximityWords: words, unknownTemplate: unknown)
        }
        switch state {
        case .scanning:
            emptyTitle = localize("Looking for beacons…")
            emptyDetail = localize("Places with beacons appear here when you are near them.")
        case .bluetoothOff:
            emptyTitle = localize("Bluetooth is off")
            emptyDetail = localize("Turn Bluetooth on to see the places near you.")
        case .noAdapter:
            emptyTitle = localize("No Bluetooth adapter")
            emptyDetail = localize("This computer has no Bluetooth adapter that Faro can use.")
        case .paused:
            emptyTitle = localize("Monitoring is paused")
            emptyDetail = localize("Resume background monitoring from the menu to see nearby places.")
        case .unavailable(let reason):
            emptyTitle = localize("Cannot scan for beacons")
            emptyDetail = reason
        }
    }

    /// "≈ 2.4 m" (one decimal below 10 m, whole metres beyond), "?" when unknown. Integer arithmetic: this runs
    /// for every row every second.
    public static func distanceText(_ distance: Double?) -> String {
        guard let d = distance, d.isFinite, d >= 0, d < 1e9 else { return "?" }
        let tenths = Int((d * 10).rounded())
        if tenths < 100 { return "≈ \(tenths / 10).\(tenths % 10) m" }
        return "≈ \(Int(d.rounded())) m"
    }

    public static func proximityText(_ proximity: Proximity, localize: Localizer) -> String {
        switch proximity {
        case .immediate: return localize("immediate")
        case .near: return localize("near")
        case .far: return localize("far")
        case .unknown: return localize("unknown")
        }
    }

    static func row(_ beacon: RangedBeacon, entry: CatalogPlace?, proximityWords: [Proximity: String],
                    unknownTemplate: String) -> BeaconRowModel {
        let title = entry?.titulo ?? "\(beacon.identity.major)/\(beacon.identity.minor)"
        let subtitle = entry?.cliente
            ?? unknownTemplate.replacing("%@", with: beacon.identity.uuid.description)
        let distance = distanceText(beacon.distance)
        let proximity = proximityWords[beacon.proximity] ?? ""
        return BeaconRowModel(
            identity: beacon.identity, title: title, subtitle: subtitle, distanceText: distance,
            proximityText: proximity, proximity: beacon.proximity, history: Array(beacon.history),
            isCatalogued: entry != nil, accessibleName: "\(title), \(subtitle), \(distance), \(proximity)")
    }
}
