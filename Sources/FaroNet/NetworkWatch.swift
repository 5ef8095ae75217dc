internal import FaroGLib

/// The system's network monitor, made and listened to on a thread of its own. GIO's monitor for NetworkManager
/// asks NetworkManager for its state with synchronous D-Bus calls when it is made, and emits `network-changed` in
/// the main context of the thread that made it: made on the main thread, a NetworkManager that did not answer held
/// the window's first frame for D-Bus's 25 s timeout. `onChange` runs on the watch's thread.
public final class NetworkWatch: Sendable {
    private let thread = ContextThread(name: "faro-network")
    /// The monitor, made, used and dropped only on `thread`.
    private nonisolated(unsafe) var monitor: NetworkMonitor?

    /// Starts watching: `onChange(available)` at every change GIO reports, from when the monitor is made.
    public init(onChange: @escaping @Sendable (Bool) -> Void) {
        thread.perform { [self] in
            monitor = NetworkMonitor()
            monitor?.subscribe(onChange)
        }
    }

    /// Ends the subscription (on the watch's thread, after its start if that is still under way).
    public func stop() {
        thread.perform { [self] in
            monitor?.stop()
            monitor = nil
        }
    }
}
