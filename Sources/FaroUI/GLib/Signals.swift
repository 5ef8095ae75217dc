internal import CGtk
internal import CShim

/// A Swift closure kept alive for GLib: retained when connected, released by GLib's destroy notify when the
/// handler or the object goes away.
final class ClosureBox<Arguments> {
    let body: (Arguments) -> Void
    init(_ body: @escaping (Arguments) -> Void) { self.body = body }
}

private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// Typed `g_signal_connect` for the signal shapes Faro uses. Handlers run on the GTK main thread.
@MainActor
enum Signal {
    /// Signals of shape `void handler(GObject *self, gpointer user_data)` ("clicked", "activate", "destroy" …).
    @discardableResult
    static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String,
        _ handler: @escaping @MainActor () -> Void
    ) -> UInt {
        let box = ClosureBox<Void> { _ in MainActor.assumeIsolated { handler() } }
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            Unmanaged<ClosureBox<Void>>.fromOpaque(data).takeUnretainedValue().body(())
        }
        return faro_g_signal_connect(
            UnsafeMutableRawPointer(instance), name,
            unsafeBitCast(trampoline, to: GCallback.self),
            Unmanaged.passRetained(box as AnyObject).toOpaque(), releaseBox)
    }

    /// Signals with one pointer argument (`row-activated` → the row, `changed`, `response` …).
    @discardableResult
    static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String,
        pointer handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> UInt {
        let box = ClosureBox<UnsafeMutableRawPointer?> { p in MainActor.assumeIsolated { handler(p) } }
        let trampoline:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)
                -> Void = { _, argument, data in
                    guard let data else { return }
                    Unmanaged<ClosureBox<UnsafeMutableRawPointer?>>.fromOpaque(data).takeUnretainedValue().body(
                        argument)
                }
        return faro_g_signal_connect(
            UnsafeMutableRawPointer(instance), name,
            unsafeBitCast(trampoline, to: GCallback.self),
            Unmanaged.passRetained(box as AnyObject).toOpaque(), releaseBox)
    }

    /// Signals with one int argument (`response` of a dialog).
    @discardableResult
    static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String,
        int handler: @escaping @MainActor (Int32) -> Void
    ) -> UInt {
        let box = ClosureBox<Int32> { v in MainActor.assumeIsolated { handler(v) } }
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = {
            _, value, data in
            guard let data else { return }
            Unmanaged<ClosureBox<Int32>>.fromOpaque(data).takeUnretainedValue().body(value)
        }
        return faro_g_signal_connect(
            UnsafeMutableRawPointer(instance), name,
            unsafeBitCast(trampoline, to: GCallback.self),
            Unmanaged.passRetained(box as AnyObject).toOpaque(), releaseBox)
    }

    /// `delete-event` and other handlers that return a gboolean (TRUE = handled, stop the default).
    @discardableResult
    static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String,
        returning handler: @escaping @MainActor () -> Bool
    ) -> UInt {
        let box = ClosureBox<UnsafeMutablePointer<gboolean>> { out in
            out.pointee = MainActor.assumeIsolated { handler() } ? 1 : 0
        }
        let trampoline:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)
                -> gboolean = { _, _, data in
                    guard let data else { return 0 }
                    var result: gboolean = 0
                    Unmanaged<ClosureBox<UnsafeMutablePointer<gboolean>>>.fromOpaque(data).takeUnretainedValue()
                        .body(&result)
                    return result
                }
        return faro_g_signal_connect(
            UnsafeMutableRawPointer(instance), name,
            unsafeBitCast(trampoline, to: GCallback.self),
            Unmanaged.passRetained(box as AnyObject).toOpaque(), releaseBox)
    }
}

/// Main-loop timers and idle callbacks with Swift closures.
@MainActor
enum MainLoop {
    /// Calls `tick` every `milliseconds` on the main loop until it returns false. Returns the source id.
    @discardableResult
    static func every(milliseconds: UInt32, _ tick: @escaping @MainActor () -> Bool) -> UInt32 {
        let box = ClosureBox<UnsafeMutablePointer<gboolean>> { out in
            out.pointee = MainActor.assumeIsolated { tick() } ? 1 : 0
        }
        let trampoline: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            guard let data else { return 0 }
            var again: gboolean = 0
            Unmanaged<ClosureBox<UnsafeMutablePointer<gboolean>>>.fromOpaque(data).takeUnretainedValue().body(&again)
            return again
        }
        return g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds, trampoline,
            Unmanaged.passRetained(box as AnyObject).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<AnyObject>.fromOpaque(data).release()
            })
    }

    /// Calls `body` once after `seconds` (a pause ending); returns the source id.
    @discardableResult
    static func once(seconds: UInt32, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        let box = ClosureBox<Void> { _ in MainActor.assumeIsolated { body() } }
        let trampoline: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            guard let data else { return 0 }
            Unmanaged<ClosureBox<Void>>.fromOpaque(data).takeUnretainedValue().body(())
            return 0
        }
        return g_timeout_add_seconds_full(
            G_PRIORITY_DEFAULT, seconds, trampoline,
            Unmanaged.passRetained(box as AnyObject).toOpaque()
        ) { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
    }

    /// Runs `body` once on the GTK main thread, from any thread.
    nonisolated static func idle(_ body: @escaping @Sendable @MainActor () -> Void) {
        let box = ClosureBox<Void> { _ in MainActor.assumeIsolated { body() } }
        let trampoline: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            guard let data else { return 0 }
            Unmanaged<ClosureBox<Void>>.fromOpaque(data).takeUnretainedValue().body(())
            return 0
        }
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, trampoline, Unmanaged.passRetained(box as AnyObject).toOpaque()) {
            data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
    }
}
