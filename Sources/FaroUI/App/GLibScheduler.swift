import FaroApp
import FaroGLib

/// The monitoring service's timers on GTK's main loop (whole seconds, rounded up, so a pause never ends early).
@MainActor
final class GLibScheduler: MainScheduler {
    func after(seconds: Double, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        MainThread.once(seconds: UInt32(min(max(seconds, 0), Double(UInt32.max / 1000)).rounded(.up)), body)
    }

    func cancel(_ token: UInt32) { MainThread.cancel(token) }
}
