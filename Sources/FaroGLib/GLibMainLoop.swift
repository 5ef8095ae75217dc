internal import CGio
import Glibc

/// A GLib main loop on the calling thread's default context, for the terminal front end and the tests; the GUI
/// runs GTK's loop instead.
public final class GLibMainLoop {
    private let loop: OpaquePointer?
    private let context: OpaquePointer?

    /// A loop on the calling thread's default context.
    public init() {
        context = g_main_context_ref_thread_default()
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Runs until `quit()`.
    public func run() { g_main_loop_run(loop) }

    /// Makes `run()` return.
    public func quit() { g_main_loop_quit(loop) }

    /// Runs `body` every `interval` seconds while it returns true; returns an id for `cancel`.
    @discardableResult
    public func every(_ interval: Double, _ body: @escaping () -> Bool) -> UInt32 {
        MainContextSources.addTimeout(
            milliseconds: UInt32(max(0, interval * 1000).rounded()), context: context, body)
    }

    /// Runs `body` once after `delay` seconds.
    @discardableResult
    public func after(_ delay: Double, _ body: @escaping () -> Void) -> UInt32 {
        every(delay) {
            body()
            return false
        }
    }

    /// Runs `body` when the process receives `signal`; the signal's default action no longer happens. The signal
    /// is unblocked on the calling thread too, since a parent (a test runner's worker thread) may have left it
    /// blocked, and GLib's own threads block every signal.
    @discardableResult
    public func onSignal(_ signal: Int32, _ body: @escaping () -> Void) -> UInt32 {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return MainContextSources.addUnixSignal(signal, context: context) {
            body()
            return true
        }
    }

    /// Removes a timer or signal handler added through this loop.
    public func cancel(_ id: UInt32) { MainContextSources.remove(id, context: context) }

    /// Iterates the context until `condition` holds or `timeout` seconds pass; returns whether it held.
    /// For tests and for short waits at exit, never for the UI.
    public func iterate(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
        var expired = false
        let timer = MainContextSources.addTimeout(milliseconds: UInt32(timeout * 1000), context: context) {
            expired = true
            return false
        }
        defer { MainContextSources.remove(timer, context: context) }
        while !condition() {
            if expired || g_get_monotonic_time() >= deadline { return condition() }
            g_main_context_iteration(context, 1)
        }
        return true
    }

    /// Seconds on GLib's monotonic clock (the clock the live sources stamp sightings with).
    public static func monotonicSeconds() -> Double { MainContextSources.monotonicSeconds() }
}
