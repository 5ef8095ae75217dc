internal import CGio
internal import FaroGLib

/// GIO's network monitor (`GNetworkMonitor`): whether the system has a network, and a callback when that changes,
/// so the app can sync its catalog and retry its outbox as soon as the network is back. The callback runs on the
/// GLib main context the monitor belongs to: the system monitor emits on the thread-default context of the thread
/// that first asked for it (`NetworkWatch` makes it on a thread of its own).
public final class NetworkMonitor {
    private let monitor: OpaquePointer
    private var handlerIDs: [UInt] = []

    /// The system's monitor. The corresponding C function is `g_network_monitor_get_default`.
    public convenience init?() {
        guard let monitor = g_network_monitor_get_default() else { return nil }
        self.init(retaining: UnsafeMutableRawPointer(monitor))
    }

    /// Any object implementing `GNetworkMonitor` (a test's `GNetworkMonitorBase`, a portal's monitor), kept
    /// alive while this value lives.
    public init(retaining object: UnsafeMutableRawPointer) {
        g_object_ref(object)
        monitor = OpaquePointer(object)
    }

    deinit {
        stop()
        g_object_unref(UnsafeMutableRawPointer(monitor))
    }

    /// Whether a network is available now. The corresponding C function is
    /// `g_network_monitor_get_network_available`.
    public var isNetworkAvailable: Bool { g_network_monitor_get_network_available(monitor) != 0 }

    /// Whether GIO sees full connectivity (the Internet reachable, no captive portal in the way). The corresponding
    /// C function is `g_network_monitor_get_connectivity`.
    public var hasFullConnectivity: Bool {
        g_network_monitor_get_connectivity(monitor) == G_NETWORK_CONNECTIVITY_FULL
    }

    /// Calls `onChange` with whether the network can be used now at every change GIO reports, until `stop()` (a
    /// second subscription replaces the first):
    /// - `network-changed`, which carries the availability: the kernel's routes changed;
    /// - `notify::network-available`: under NetworkManager, GIO reports NetworkManager's state only through this
    ///   property, so NetworkManager saying it is connected again raises no `network-changed` unless the routes
    ///   changed too;
    /// - `notify::connectivity`, as full connectivity (a captive portal passed, the network available all along).
    public func subscribe(_ onChange: @escaping (Bool) -> Void) {
        stop()
        let object = UnsafeMutableRawPointer(monitor)
        // `network-changed` carries a gboolean, which is a C int.
        handlerIDs = [
            GObjectSignal.connect(object, "network-changed", int: { available in onChange(available != 0) }),
            GObjectSignal.connect(
                object, "notify::network-available", pointer: { [unowned self] _ in onChange(isNetworkAvailable) }),
            GObjectSignal.connect(
                object, "notify::connectivity",
                pointer: { [unowned self] _ in onChange(isNetworkAvailable && hasFullConnectivity) }),
        ]
    }

    /// Ends the subscription (its closure is released by GLib).
    public func stop() {
        for id in handlerIDs { GObjectSignal.disconnect(UnsafeMutableRawPointer(monitor), id) }
        handlerIDs = []
    }
}
