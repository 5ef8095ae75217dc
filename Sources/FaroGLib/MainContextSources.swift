internal import CGio
import Glibc

/// Timers, idles, fd watches and Unix signal handlers on a GLib main context, with Swift closures boxed in
/// `GLibClosure`. `context` nil is the global default context (the one GTK's main loop iterates).
public enum MainContextSources {
    /// The calling thread's default main context (the thread-default one, or the global default), referenced;
    /// release it with `release(context:)`.
    public static func currentContext() -> OpaquePointer? { g_main_context_ref_thread_default() }

    /// Drops a reference taken by `currentContext()`.
    public static func release(context: OpaquePointer?) {
        if let context { g_main_context_unref(context) }
    }

    /// Runs `body` every `milliseconds` on `context` while it returns true. The corresponding C function is
    /// `g_timeout_source_new`.
    @discardableResult
    public static func addTimeout(
        milliseconds: UInt32, context: OpaquePointer? = nil, _ body: @escaping () -> Bool
    ) -> UInt32 {
        attach(g_timeout_source_new(milliseconds), to: context, body)
    }

    /// Runs `body` every `seconds` (whole seconds, grouped with other such timers to save wake-ups) while it
    /// returns true. The corresponding C function is `g_timeout_source_new_seconds`.
    @discardableResult
    public static func addSecondsTimeout(
        seconds: UInt32, context: OpaquePointer? = nil, _ body: @escaping () -> Bool
    ) -> UInt32 {
        attach(g_timeout_source_new_seconds(seconds), to: context, body)
    }

    /// GLib priorities Faro schedules idles at.
    public enum IdlePriority {
        /// `G_PRIORITY_DEFAULT_IDLE`: after pending events, redraws and relayouts.
        case defaultIdle
        /// `G_PRIORITY_HIGH_IDLE`: before GTK's relayout and redraw.
        case highIdle
        /// `G_PRIORITY_LOW`: after everything else, idles included (a benchmark's "the first frame is drawn").
        case low
        /// Below `G_PRIORITY_LOW`: only once nothing else is ready, low-priority idles included (the work that
        /// waits for the first frame, so that the benchmark's quit behind that frame comes first).
        case last

        var value: Int32 {
            switch self {
            case .defaultIdle: return G_PRIORITY_DEFAULT_IDLE
            case .highIdle: return G_PRIORITY_HIGH_IDLE
            case .low: return G_PRIORITY_LOW
            case .last: return G_PRIORITY_LOW + 100
            }
        }
    }

    /// Runs `body` once the context is idle, again while it returns true.
    @discardableResult
    public static func addIdle(
        context: OpaquePointer? = nil, priority: IdlePriority = .defaultIdle, _ body: @escaping () -> Bool
    ) -> UInt32 {
        guard let source = g_idle_source_new() else { return 0 }
        g_source_set_priority(source, priority.value)
        return attach(source, to: context, body)
    }

    /// Runs `body` on `context` when the process receives `signal` (SIGINT, SIGTERM, SIGHUP…), instead of the
    /// default action. The corresponding C function is `g_unix_signal_source_new`.
    @discardableResult
    public static func addUnixSignal(
        _ signal: Int32, context: OpaquePointer? = nil, _ body: @escaping () -> Bool
    ) -> UInt32 {
        attach(g_unix_signal_source_new(signal), to: context, body)
    }

    /// Runs `body` on `context` whenever `fd` is readable, while it returns true. GLib's fd sources take a
    /// `GUnixFDSourceFunc`; `g_source_set_callback` wants it cast to a `GSourceFunc` (the C macro G_SOURCE_FUNC).
    @discardableResult
    public static func addFDWatch(_ fd: Int32, context: OpaquePointer? = nil, _ body: @escaping () -> Bool) -> UInt32 {
        guard let source = g_unix_fd_source_new(fd, G_IO_IN) else { return 0 }
        let callback: GUnixFDSourceFunc = { _, _, data in
            guard let data else { return 0 }
            return GLibClosure<Void, Bool>.call(data, ()) ? 1 : 0
        }
        g_source_set_callback(
            source, unsafeBitCast(callback, to: GSourceFunc.self), GLibClosure<Void, Bool>.retained(body),
            releaseClosure)
        let id = g_source_attach(source, context)
        g_source_unref(source)
        return id
    }

    /// Destroys the source `id` of `context`, if it still exists.
    public static func remove(_ id: UInt32, context: OpaquePointer? = nil) {
        guard id != 0, let source = g_main_context_find_source_by_id(context, id) else { return }
        g_source_destroy(source)
    }

    /// Seconds on GLib's monotonic clock (the clock the live sources stamp sightings with).
    public static func monotonicSeconds() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

    private static func attach(
        _ source: UnsafeMutablePointer<GSource>?, to context: OpaquePointer?, _ body: @escaping () -> Bool
    ) -> UInt32 {
        guard let source else { return 0 }
        g_source_set_callback(
            source,
            { data in
                guard let data else { return 0 }
                return GLibClosure<Void, Bool>.call(data, ()) ? 1 : 0
            }, GLibClosure<Void, Bool>.retained(body), releaseClosure)
        let id = g_source_attach(source, context)
        g_source_unref(source)
        return id
    }
}
