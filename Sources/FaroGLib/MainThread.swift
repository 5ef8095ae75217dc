internal import CGio

/// The GTK main thread (the global default GLib context) seen from Swift: hop onto it from any thread, and
/// timers whose handlers are main-actor code. GTK owns the main thread, so Swift's main queue never runs there;
/// this is the dependable way back.
public enum MainThread {
    /// Runs `body` once on the main loop, from any thread. Never `g_main_context_invoke`: before the loop owns its
    /// context that runs the callback on the calling thread.
    public static func run(_ body: @escaping @Sendable @MainActor () -> Void) {
        MainContextSources.addIdle {
            MainActor.assumeIsolated { body() }
            return false
        }
    }

    /// The hop as a value, for code that is handed "how to get back to the main thread" (the beacon session,
    /// the catalog, the outbox).
    public static let hop: @Sendable (@escaping @Sendable @MainActor () -> Void) -> Void = { body in run(body) }

    /// Calls `tick` every `milliseconds` on the main loop until it returns false. Returns the source id.
    @MainActor
    @discardableResult
    public static func every(milliseconds: UInt32, _ tick: @escaping @MainActor () -> Bool) -> UInt32 {
        MainContextSources.addTimeout(milliseconds: milliseconds) { MainActor.assumeIsolated { tick() } }
    }

    /// Calls `body` once after `seconds` (a pause ending); returns the source id.
    @MainActor
    @discardableResult
    public static func once(seconds: UInt32, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        MainContextSources.addSecondsTimeout(seconds: seconds) {
            MainActor.assumeIsolated { body() }
            return false
        }
    }

    /// Cancels a timer made by `every` or `once`.
    @MainActor
    public static func cancel(_ id: UInt32) { MainContextSources.remove(id) }
}
