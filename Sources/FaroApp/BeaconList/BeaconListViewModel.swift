import FaroCore
import FoundationEssentials

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
    case unavailable(ScannerProblem)
    /// Discovering, but nothing at all heard for `minutes`: the watchdog is restarting discovery.
    case quiet(minutes: Int)
}

/// Why scanning cannot run, as a value the list words (the source's English reason stays in the logs).
public enum ScannerProblem: Equatable, Sendable {
    /// bluetoothd is not on the system bus (not started, gone, or no system bus at all).
    case serviceMissing
    /// Faro may not use Bluetooth here (policy, or no raw-socket capability).
    case accessDenied
    /// The adapter is missing, down, busy or not answering, or the kernel has no Bluetooth.
    case adapterUnusable
    /// bluetoothd refused a call.
    case refused
    /// Anything else.
    case other

    public init(_ error: ScanError) {
        switch error {
        case .systemBusUnavailable, .bluezNotRunning: self = .serviceMissing
        case .bluezCallFailed: self = .refused
        case .missingRawCapability: self = .accessDenied
        case .bluetoothNotInKernel, .noAdapter, .adapterDown, .controllerBusy, .controllerTimeout, .invalidAdapterName,
            .invalidDeviceName:
            self = .adapterUnusable
        case .commandFailed, .systemCallFailed: self = .other
        }
    }

    /// In the user's language.
    public func message(_ localize: Localizer) -> String {
        switch self {
        case .serviceMissing:
            return localize("The Bluetooth service (bluetoothd) is not running. Faro starts scanning as soon as it is.")
        case .accessDenied: return localize("Faro is not allowed to use Bluetooth on this computer.")
        case .adapterUnusable: return localize("The Bluetooth adapter cannot be used: it is missing, off or busy.")
        case .refused: return localize("The Bluetooth service refused to scan. Try again.")
        case .other: return localize("Scanning failed. Run faro scan in a terminal to see why.")
        }
    }
}

/// The beacon list's state: rows nearest first, and an empty-state message when there are none.
public struct BeaconListViewModel: Equatable, Sendable {
    public var rows: [BeaconRowModel]
    /// Shown instead of the list when there are no rows.
    public var emptyTitle: String
    public var emptyDetail: String

    public init(
        snapshot: RangingSnapshot, catalog: CatalogIndex, state: ScannerState,
        localize: Localizer
    ) {
        var builder = BeaconListBuilder(localize: localize)
        self = builder.update(snapshot: snapshot, catalog: catalog, state: state).model
    }

    public init(rows: [BeaconRowModel], emptyTitle: String, emptyDetail: String) {
        self.rows = rows
        self.emptyTitle = emptyTitle
        self.emptyDetail = emptyDetail
    }

    /// The status line's words for `state`, when it has any: a scanner that hears nothing ("El Bluetooth no recibe
    /// nada desde hace 3 min", at least 1 min).
    public static func statusText(_ state: ScannerState, localize: Localizer) -> String? {
        guard case .quiet(let minutes) = state else { return nil }
        return localize.format("Bluetooth has received nothing for %@ min", String(max(1, minutes)))
    }

    /// The empty state's title and detail for `state`.
    public static func emptyTexts(_ state: ScannerState, localize: Localizer) -> (title: String, detail: String) {
        switch state {
        case .scanning, .quiet:
            return (
                localize("Looking for beacons…"),
                localize("Places with beacons appear here when you are near them.")
            )
        case .bluetoothOff:
            return (localize("Bluetooth is off"), localize("Turn Bluetooth on to see the places near you."))
        case .noAdapter:
            return (
                localize("No Bluetooth adapter"),
                localize("This computer has no Bluetooth adapter that Faro can use.")
            )
        case .paused:
            return (
                localize("Monitoring is paused"),
                localize("Resume background monitoring from the menu to see nearby places.")
            )
        case .unavailable(let problem):
            return (localize("Cannot scan for beacons"), problem.message(localize))
        }
    }

    public static func proximityText(_ proximity: Proximity, localize: Localizer) -> String {
        switch proximity {
        case .immediate: return localize("immediate")
        case .near: return localize("near")
        case .far: return localize("far")
        case .unknown: return localize("unknown")
        }
    }

    /// The title and subtitle of a beacon's row: the catalog's site title and business, or its major/minor and a
    /// hint that it is not in the catalog.
    static func names(
        _ identity: BeaconIdentity, entry: CatalogPlace?,
        unknownTemplate: String
    ) -> (title: String, subtitle: String) {
        let title = entry?.titulo ?? "\(identity.major)/\(identity.minor)"
        let subtitle =
            entry?.cliente
            ?? unknownTemplate.replacing("%@", with: identity.uuid.description)
        return (title, subtitle)
    }

    static func row(
        _ beacon: RangedBeacon, title: String, subtitle: String, isCatalogued: Bool,
        proximityText: String
    ) -> BeaconRowModel {
        let distance = DistanceText.approximate(beacon.distance)
        return BeaconRowModel(
            identity: beacon.identity, title: title, subtitle: subtitle, distanceText: distance,
            proximityText: proximityText, proximity: beacon.proximity, history: beacon.history.values,
            isCatalogued: isCatalogued,
            accessibleName: accessibleName(
                title: title, subtitle: subtitle, distance: distance, proximity: proximityText))
    }

    /// What a screen reader says about a row.
    static func accessibleName(title: String, subtitle: String, distance: String, proximity: String) -> String {
        "\(title), \(subtitle), \(distance), \(proximity)"
    }
}
