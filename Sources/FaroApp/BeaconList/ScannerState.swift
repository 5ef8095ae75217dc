import FaroCore

/// Why the list is empty, so the empty state can say so.
public enum ScannerState: Equatable, Sendable {
    case scanning
    case bluetoothOff
    case noAdapter
    case paused
    case unavailable(ScannerProblem)
    /// Discovering, but nothing at all heard for `minutes`: the watchdog is restarting discovery.
    case quiet(minutes: Int)

    /// The status line's words, when it has any: a scanner that hears nothing ("El Bluetooth no recibe nada desde
    /// hace 3 min", at least 1 min).
    public func statusText(_ localize: Localizer) -> String? {
        guard case .quiet(let minutes) = self else { return nil }
        return localize.format("Bluetooth has received nothing for %@ min", String(max(1, minutes)))
    }

    /// The empty list's title and detail.
    public func emptyTexts(_ localize: Localizer) -> (title: String, detail: String) {
        switch self {
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
