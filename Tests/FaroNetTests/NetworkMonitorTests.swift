import CGio
import FaroNet
import Foundation
import Testing

/// The GNetworkMonitor adapter on the system's own monitor: the test emits `network-changed` on it exactly as GIO
/// does when a network comes or goes (GIO's settable base monitor is private API), and checks what reaches Swift.
@Suite(.serialized) struct NetworkMonitorTests {
    /// Emits `network-changed(available)` on `monitor` (`g_signal_emit_by_name` is variadic; this is its array form).
    func emit(_ monitor: OpaquePointer, available: Bool) {
        let signal = g_signal_lookup("network-changed", g_network_monitor_get_type())
        var values = [GValue](repeating: GValue(), count: 2)
        g_value_init(&values[0], g_type_from_name("GObject"))
        g_value_set_object(&values[0], UnsafeMutableRawPointer(monitor))
        g_value_init(&values[1], g_type_from_name("gboolean"))
        g_value_set_boolean(&values[1], available ? 1 : 0)
        g_signal_emitv(&values, signal, 0, nil)
        g_value_unset(&values[0])
        g_value_unset(&values[1])
    }

    @Test func reportsTheNetworkGoingAndComingBackUntilStopped() throws {
        let system = try #require(g_network_monitor_get_default())
        let monitor = NetworkMonitor(retaining: UnsafeMutableRawPointer(system))
        var seen: [Bool] = []
        monitor.subscribe { seen.append($0) }
        emit(system, available: false)
        emit(system, available: true)
        #expect(seen == [false, true])
        // A second subscription replaces the first: one callback per signal.
        var second: [Bool] = []
        monitor.subscribe { second.append($0) }
        emit(system, available: false)
        #expect(seen == [false, true] && second == [false])
        monitor.stop()
        emit(system, available: true)
        #expect(second == [false])
    }

    @Test func reportsNetworkManagersStateThroughTheMonitorsProperties() throws {
        // Under NetworkManager, GIO reports its state only as property changes, never as `network-changed`.
        let system = try #require(g_network_monitor_get_default())
        let monitor = NetworkMonitor(retaining: UnsafeMutableRawPointer(system))
        var seen: [Bool] = []
        monitor.subscribe { seen.append($0) }
        g_object_notify(UnsafeMutableRawPointer(system).assumingMemoryBound(to: GObject.self), "network-available")
        #expect(seen == [monitor.isNetworkAvailable])
        // Connectivity counts as usable only when full (not behind a captive portal, not local only).
        g_object_notify(UnsafeMutableRawPointer(system).assumingMemoryBound(to: GObject.self), "connectivity")
        #expect(seen == [monitor.isNetworkAvailable, monitor.isNetworkAvailable && monitor.hasFullConnectivity])
        monitor.stop()
        g_object_notify(UnsafeMutableRawPointer(system).assumingMemoryBound(to: GObject.self), "network-available")
        #expect(seen.count == 2)
    }

    @Test func theSystemMonitorAnswers() {
        // Whatever this machine's network, the system monitor exists and can be asked.
        let monitor = NetworkMonitor()
        #expect(monitor != nil)
        _ = monitor?.isNetworkAvailable
    }
}
