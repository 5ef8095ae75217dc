internal import CGio
import Glibc

/// A Swift closure lent to GLib as a source's user data: retained when handed over, released by GLib's destroy
/// notify when the source is destroyed, so GLib owns the box for exactly as long as it may call it.
final class SourceCallback {
    let body: () -> Bool
    init(_ body: @escaping () -> Bool) { self.body = body }
}

/// Timers, idles and Unix signal handlers on a GLib main context, with Swift closures.
public enum GLibMainContext {
    /// The calling thread's default main context (the thread-default one, or the global default), referenced.
    static func currentContext() -> OpaquePointer? { g_main_context_ref_thread_default() }

    /// Runs `body` every `milliseconds` on `context` (nil: the global default) while it returns true.
    @discardableResult
    static func addTimeout(milliseconds: UInt32, context: OpaquePointer?, _ body: @escaping () -> Bool) -> UInt32 {
        attach(g_timeout_source_new(milliseconds), to: context, body)
    }

    /// Runs `body` once the context is idle, again while it returns true.
    @discardableResult
    static func addIdle(context: OpaquePointer?, _ body: @escaping () -> Bool) -> UInt32 {
        attach(g_idle_source_new(), to: context, body)
    }

    /// Runs `body` on `context` when the process receives `signal` (SIGINT, SIGTERM, SIGHUP…), instead of the
    /// default action. The corresponding C function is `g_unix_signal_source_new`.
    @discardableResult
    static func addUnixSignal(_ signal: Int32, context: OpaquePointer?, _ body: @escaping () -> Bool) -> UInt32 {
        attach(g_unix_signal_source_new(signal), to: context, body)
    }

    /// Destroys the source `id` of `context`, if it still exists.
    static func remove(_ id: UInt32, context: OpaquePointer?) {
        guard id != 0, let source = g_main_context_find_source_by_id(context, id) else { return }
        g_source_destroy(source)
    }

    private static func attach(
        _ source: UnsafeMutablePointer<GSource>?, to context: OpaquePointer?,
        _ body: @escaping () -> Bool
    ) -> UInt32 {
        guard let source else { return 0 }
        let box = Unmanaged.passRetained(SourceCallback(body)).toOpaque()
        g_source_set_callback(
            source,
            { data in
                guard let data else { return 0 }
                return Unmanaged<SourceCallback>.fromOpaque(data).takeUnretainedValue().body() ? 1 : 0
            }, box,
            { data in
                guard let data else { return }
                Unmanaged<SourceCallback>.fromOpaque(data).release()
            })
        let id = g_source_attach(source, context)
        g_source_unref(source)
        return id
    }
}

/// A GLib main loop on a main context, for the terminal front end and the tests; the GUI runs GTK's loop instead.
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
        GLibMainContext.addTimeout(milliseconds: UInt32(max(0, interval * 1000).rounded()), context: context, body)
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
        return GLibMainContext.addUnixSignal(signal, context: context) {
            body()
            return true
        }
    }

    /// Removes a timer or signal handler added through this loop.
    public func cancel(_ id: UInt32) { GLibMainContext.remove(id, context: context) }

    /// Iterates the context until `condition` holds or `timeout` seconds pass; returns whether it held.
    /// For tests and for short waits at exit, never for the UI.
    public func iterate(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
        var expired = false
        let timer = GLibMainContext.addTimeout(milliseconds: UInt32(timeout * 1000), context: context) {
            expired = true
            return false
        }
        defer { GLibMainContext.remove(timer, context: context) }
        while !condition() {
            if expired || g_get_monotonic_time() >= deadline { return condition() }
            g_main_context_iteration(context, 1)
        }
        return true
    }

    /// Seconds on GLib's monotonic clock (the clock the live sources stamp sightings with).
    public static func monotonicSeconds() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }
}

extension GLibMainContext {
    /// Runs `body` on `context` whenever `fd` is readable, while it returns true. GLib's fd sources take a
    /// `GUnixFDSourceFunc`; `g_source_set_callback` wants it cast to a `GSourceFunc` (the C macro G_SOURCE_FUNC).
    @discardableResult
    static func addFDWatch(_ fd: Int32, context: OpaquePointer?, _ body: @escaping () -> Bool) -> UInt32 {
        guard let source = g_unix_fd_source_new(fd, G_IO_IN) else { return 0 }
        let box = Unmanaged.passRetained(SourceCallback(body)).toOpaque()
        let callback: GUnixFDSourceFunc = { _, _, data in
            guard let data else { return 0 }
            return Unmanaged<SourceCallback>.fromOpaque(data).takeUnretainedValue().body() ? 1 : 0
        }
        g_source_set_callback(
            source, unsafeBitCast(callback, to: GSourceFunc.self), box,
            { data in
                guard let data else { return }
                Unmanaged<SourceCallback>.fromOpaque(data).release()
            })
        let id = g_source_attach(source, context)
        g_source_unref(source)
        return id
    }
}
