/// What a source is doing, in words a user can act on. Every state is recoverable: the source keeps watching and
/// moves on by itself (to `.scanning` or `.resumed`) when the cause goes away.
public enum SourceState: Sendable, Equatable, CustomStringConvertible {
    /// bluetoothd (`org.bluez`) is not on the system bus yet; scanning starts when it appears.
    case waitingForService
    /// Discovery is running on this adapter (`hci0`).
    case scanning(adapter: String)
    /// Discovery runs again after an interruption (service restart, adapter back, power back on).
    case resumed(adapter: String)
    /// No usable adapter: none at all, or not the one asked for with `--adapter`.
    case adapterMissing(requested: String?)
    /// The adapter exists but is powered off.
    case poweredOff(adapter: String)
    /// bluetoothd left the bus (stopped, crashed or restarting); scanning resumes when it is back.
    case serviceGone
    /// The bus refused a call to bluetoothd: its D-Bus policy does not let this user scan.
    case accessDenied(detail: String)
    /// A recorded source played everything it had.
    case finished
    /// Discovery runs on this adapter but nothing at all has been heard for `minutes` (whole minutes); the
    /// watchdog is restarting discovery (docs/monitoring.md).
    case quiet(adapter: String, minutes: Int)

    public var description: String {
        switch self {
        case .waitingForService:
            return "bluetoothd is not running (no org.bluez on the system bus); waiting for it to start "
                + "(sudo systemctl start bluetooth), or use --source hci or --source demo"
        case .scanning(let adapter):
            return "scanning with \(adapter)"
        case .resumed(let adapter):
            return "scanning again with \(adapter)"
        case .adapterMissing(let requested?):
            return "Bluetooth adapter \(requested) is not there; waiting for it (check `bluetoothctl list`, "
                + "or choose another with --adapter)"
        case .adapterMissing(nil):
            return "no Bluetooth adapter; waiting for one to be plugged in or unblocked (rfkill unblock bluetooth)"
        case .poweredOff(let adapter):
            return "Bluetooth adapter \(adapter) is powered off; turn it on (bluetoothctl power on, "
                + "or run faro with --power-on)"
        case .serviceGone:
            return "bluetoothd left the system bus; scanning resumes when it is back"
        case .accessDenied(let detail):
            return "the system bus denied access to bluetoothd (\(detail)); ask your administrator to allow "
                + "your user to use Bluetooth (often the 'bluetooth' group), or use --source hci or --source demo"
        case .finished:
            return "the recording has ended"
        case .quiet(let adapter, let minutes):
            let time = minutes < 1 ? "under a minute" : "\(minutes) min"
            return "\(adapter) has heard nothing for \(time) while discovering; restarting discovery"
        }
    }
}

/// Everything a source reports, in the order it happened, on the GLib main context the source was started on.
public enum SourceEvent: Sendable, Equatable {
    /// An iBeacon was heard.
    case sighting(BeaconSighting)
    /// The source's situation changed (see `SourceState`).
    case state(SourceState)
    /// The source cannot go on; it has stopped and released what it held.
    case failed(ScanError)
}

/// Where advertisements come from: BlueZ over D-Bus, a raw HCI socket, a replay file or the demo. The terminal
/// front end and the GUI use every source the same way.
///
/// A source is confined to the thread that starts it and delivers events through that thread's GLib main context
/// (the thread-default context, or the global default one); nothing happens unless that context is iterated.
public protocol AdvertisementSource: AnyObject {
    /// A short name for messages (`bluez`, `hci`, `replay`, `demo`).
    var name: String { get }

    /// Starts listening; `handler` receives every event on the starting thread's GLib main context.
    /// Errors thrown here are the ones known at once (a bad option, no Bluetooth in the kernel); later ones
    /// arrive as `.failed` events.
    func start(_ handler: @escaping (SourceEvent) -> Void) throws(ScanError)

    /// Stops listening and gives back what was changed (discovery, the controller's scan state); `done` runs
    /// on the same context when that is finished, or at once when there is nothing to undo.
    func stop(_ done: @escaping () -> Void)
}
