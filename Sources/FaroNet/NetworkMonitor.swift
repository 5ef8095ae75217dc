internal import CGio
internal import FaroGLib

/// GIO's network monitor (`GNetworkMonitor`): whether the system has a network, and a callback when that changes
/// (the `network-changed` signal), so the app can sync its catalog and retry its outbox as soon as the network is
/// back. The callback runs on the GLib main context the monitor belongs to: the system monitor emits on the main
/// context of the thread that first asked for it, so make this on the GTK main thread.
public final class NetworkMonitor {
    private let monitor: OpaquePointer
    private var handlerID: UInt = 0

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

    /// Calls `onChange` with the new availability at every `network-changed` signal, until `stop()` (a second
    /// subscription replaces the first).
    public func subscribe(_ onChange: @escaping (Bool) -> Void) {
        stop()
        // `network-changed` carries a gboolean, which is a C int.
        handlerID = GObjectSignal.connect(
            UnsafeMutableRawPointer(monitor), "network-changed", int: { available in onChange(available != 0) })
    }

    /// Ends the subscription (its closure is released by GLib).
    public func stop() {
        guard handlerID != 0 else { return }
        GObjectSignal.disconnect(UnsafeMutableRawPointer(monitor), handlerID)
        handlerID = 0
    }
}
