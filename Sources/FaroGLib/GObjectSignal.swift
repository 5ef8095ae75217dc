internal import CGio
internal import CShim.GObject

/// Typed `g_signal_connect` for the handler shapes Faro uses, with the Swift closure boxed in a `GLibClosure`
/// that GLib releases when the handler or the object goes away. Handlers run on the thread that emits the
/// signal (GTK's main thread for widgets); the `@MainActor` forms assume exactly that.
public enum GObjectSignal {
    /// `void handler(GObject *self, gpointer user_data)`: "clicked", "activate", "destroy", "changed" …
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String, _ handler: @escaping () -> Void
    ) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            GLibClosure<Void, Void>.call(data, ())
        }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self),
            GLibClosure<Void, Void>.retained(handler), releaseSignalClosure)
    }

    /// One pointer argument: "row-activated" (the row), "change-state" (the GVariant), "size-prepared" …
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String,
        pointer handler: @escaping (UnsafeMutableRawPointer?) -> Void
    ) -> UInt {
        let trampoline:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
                _, argument, data in
                guard let data else { return }
                GLibClosure<UnsafeMutableRawPointer?, Void>.call(data, argument)
            }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self),
            GLibClosure<UnsafeMutableRawPointer?, Void>.retained(handler), releaseSignalClosure)
    }

    /// Two pointer arguments: "notify" (the GParamSpec), GSettings "changed" (the key) with the object first …
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String,
        pointers handler: @escaping (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    ) -> UInt {
        typealias Pair = (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)
        let trampoline:
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                UnsafeMutableRawPointer?
            ) -> Void = { _, first, second, data in
                guard let data else { return }
                GLibClosure<Pair, Void>.call(data, (first, second))
            }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self),
            GLibClosure<Pair, Void>.retained(handler), releaseSignalClosure)
    }

    /// One int argument: a dialog's "response".
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String, int handler: @escaping (Int32) -> Void
    ) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = {
            _, value, data in
            guard let data else { return }
            GLibClosure<Int32, Void>.call(data, value)
        }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self),
            GLibClosure<Int32, Void>.retained(handler), releaseSignalClosure)
    }

    /// The emitting object and two int arguments: a GdkPixbufLoader's "size-prepared" (width, height), which the
    /// handler answers on the object itself.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String,
        sizes handler: @escaping (UnsafeMutableRawPointer?, Int32, Int32) -> Void
    ) -> UInt {
        typealias Sizes = (UnsafeMutableRawPointer?, Int32, Int32)
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = {
            object, first, second, data in
            guard let data else { return }
            GLibClosure<Sizes, Void>.call(data, (object, first, second))
        }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self), GLibClosure<Sizes, Void>.retained(handler),
            releaseSignalClosure)
    }

    /// Two double arguments, a point: a GtkGestureLongPress's "pressed" (x, y in the widget's coordinates).
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String, point handler: @escaping (Double, Double) -> Void
    ) -> UInt {
        typealias Point = (Double, Double)
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = {
            _, x, y, data in
            guard let data else { return }
            GLibClosure<Point, Void>.call(data, (x, y))
        }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self), GLibClosure<Point, Void>.retained(handler),
            releaseSignalClosure)
    }

    /// Handlers that return a gboolean (TRUE = handled, stop the default): "delete-event", "key-press-event" with
    /// its event pointer.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String,
        returning handler: @escaping (UnsafeMutableRawPointer?) -> Bool
    ) -> UInt {
        let trampoline:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean =
                { _, argument, data in
                    guard let data else { return 0 }
                    return GLibClosure<UnsafeMutableRawPointer?, Bool>.call(data, argument) ? 1 : 0
                }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self),
            GLibClosure<UnsafeMutableRawPointer?, Bool>.retained(handler), releaseSignalClosure)
    }

    /// One int argument and a gboolean returned (TRUE = handled): a widget's "focus" (the direction).
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer?, _ name: String, intReturning handler: @escaping (Int32) -> Bool
    ) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> gboolean = {
            _, value, data in
            guard let data else { return 0 }
            return GLibClosure<Int32, Bool>.call(data, value) ? 1 : 0
        }
        return faro_g_signal_connect(
            instance, name, unsafeBitCast(trampoline, to: GCallback.self),
            GLibClosure<Int32, Bool>.retained(handler), releaseSignalClosure)
    }

    /// Stops the emission of `name` on `instance` in progress: the handlers after this one and the default one
    /// do not run (a handler that does the default's work itself).
    public static func stopEmission(_ instance: UnsafeMutableRawPointer?, _ name: String) {
        guard let instance else { return }
        g_signal_stop_emission_by_name(instance, name)
    }

    /// Disconnects a handler (its box is released by GLib).
    public static func disconnect(_ instance: UnsafeMutableRawPointer?, _ id: UInt) {
        guard let instance, id != 0 else { return }
        g_signal_handler_disconnect(instance.assumingMemoryBound(to: GObject.self), gulong(id))
    }

    /// Drops a reference to any GObject (`g_object_unref` through `G_OBJECT()`).
    public static func unref(_ object: UnsafeMutableRawPointer?) {
        if let object { faro_g_object_unref(object) }
    }
}
