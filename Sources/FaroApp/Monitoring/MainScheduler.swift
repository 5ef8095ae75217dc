/// Timers on the thread that owns the app (GTK's main loop in the window, a manual clock in tests): what the
/// monitoring service uses to end a pause at its time.
@MainActor
public protocol MainScheduler: AnyObject {
    /// Runs `body` once after `seconds`; returns a token for `cancel`.
    func after(seconds: Double, _ body: @escaping @MainActor () -> Void) -> UInt32
    func cancel(_ token: UInt32)
}
