/// `GObjectSignal` for main-thread code: any GTK or GIO object (typed or opaque pointers, `GObjectInstance`) and
/// `@MainActor` handlers. GTK emits widget signals on the main thread, which is what `MainActor.assumeIsolated`
/// checks.
@MainActor
public enum Signal {
    /// "clicked", "activate", "destroy", "changed" …
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, _ handler: @escaping @MainActor () -> Void
    ) -> UInt {
        GObjectSignal.connect(instance?.instancePointer, name) { MainActor.assumeIsolated { handler() } }
    }

    /// One pointer argument ("row-activated" → the row, "change-state" → the GVariant …).
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, pointer handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> UInt {
        GObjectSignal.connect(
            instance?.instancePointer, name, pointer: { p in MainActor.assumeIsolated { handler(p) } })
    }

    /// One int argument (a dialog's "response").
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, int handler: @escaping @MainActor (Int32) -> Void
    ) -> UInt {
        GObjectSignal.connect(instance?.instancePointer, name, int: { v in MainActor.assumeIsolated { handler(v) } })
    }

    /// Two int arguments: a GtkListBox's "move-cursor" (the GtkMovementStep, the count).
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, ints handler: @escaping @MainActor (Int32, Int32) -> Void
    ) -> UInt {
        GObjectSignal.connect(
            instance?.instancePointer, name, sizes: { _, a, b in MainActor.assumeIsolated { handler(a, b) } })
    }

    /// One int argument and a gboolean returned (TRUE = handled): a widget's "focus" (the GtkDirectionType).
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, intReturning handler: @escaping @MainActor (Int32) -> Bool
    ) -> UInt {
        GObjectSignal.connect(
            instance?.instancePointer, name, intReturning: { v in MainActor.assumeIsolated { handler(v) } })
    }

    /// A point (two doubles): a GtkGestureLongPress's "pressed".
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, point handler: @escaping @MainActor (Double, Double) -> Void
    ) -> UInt {
        GObjectSignal.connect(
            instance?.instancePointer, name, point: { x, y in MainActor.assumeIsolated { handler(x, y) } })
    }

    /// Handlers that return a gboolean (TRUE = handled, stop the default), such as "delete-event".
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, returning handler: @escaping @MainActor () -> Bool
    ) -> UInt {
        GObjectSignal.connect(
            instance?.instancePointer, name, returning: { _ in MainActor.assumeIsolated { handler() } })
    }

    /// Handlers that return a gboolean and take the event pointer ("key-press-event").
    @discardableResult
    public static func connect<Instance: GObjectInstance>(
        _ instance: Instance?, _ name: String, event handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool
    ) -> UInt {
        GObjectSignal.connect(
            instance?.instancePointer, name, returning: { e in MainActor.assumeIsolated { handler(e) } })
    }
}
