internal import CGio

/// A thread of its own running a GLib main loop on a main context of its own, for a C library of the GLib family
/// whose calls block and whose signals come back on the thread that made its objects. libnotify is one: every call
/// that reaches the notification server is a synchronous D-Bus call (up to D-Bus's 25 s timeout when the server
/// does not answer), and its GDBusProxy emits "closed" and the actions in the thread-default context of the thread
/// that created it. Work given to `perform` runs on this thread with that context as its thread-default one, in the
/// order it was given; the thread lives as long as the process.
public final class ContextThread: Sendable {
    /// The thread's context. `g_main_context_new` and `g_source_attach` are thread-safe; only the thread iterates it.
    private nonisolated(unsafe) let context: OpaquePointer

    /// Starts the thread, named `name` (what `top -H` and a debugger show).
    public init(name: String) {
        context = g_main_context_new()
        let loop = g_main_loop_new(context, 0)
        let start: GThreadFunc = { data in
            guard let data else { return nil }
            let loop = OpaquePointer(data)
            let context = g_main_loop_get_context(loop)
            g_main_context_push_thread_default(context)
            g_main_loop_run(loop)
            g_main_context_pop_thread_default(context)
            g_main_loop_unref(loop)
            return nil
        }
        // The thread owns the loop's reference; unreferencing the GThread detaches it.
        g_thread_unref(g_thread_new(name, start, UnsafeMutableRawPointer(loop)))
    }

    /// Runs `body` once on the thread, after the work given before it.
    public func perform(_ body: @escaping @Sendable () -> Void) {
        MainContextSources.addIdle(context: context) {
            body()
            return false
        }
    }
}
