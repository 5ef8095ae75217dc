/// `GObjectSignal` for main-thread code: typed instance pointers (any GTK or GIO object) and `@MainActor`
/// handlers. GTK emits widget signals on the main thread, which is what `MainActor.assumeIsolated` checks.
@MainActor
public enum Signal {
    /// "clicked", "activate", "destroy", "changed" …
    @discardableResult
    public static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String, _ handler: @escaping @MainActor () -> Void
    ) -> UInt {
        GObjectSignal.connect(UnsafeMutableRawPointer(instance), name) { MainActor.assumeIsolated { handler() } }
    }

    /// The same for objects Swift imports as opaque pointers (GMenu, GSimpleAction, GSettings …).
    @discardableResult
    public static func connect(
        _ instance: OpaquePointer?, _ name: String, _ handler: @escaping @MainActor () -> Void
    ) -> UInt {
        GObjectSignal.connect(UnsafeMutableRawPointer(instance), name) { MainActor.assumeIsolated { handler() } }
    }

    /// One pointer argument ("row-activated" → the row, "change-state" → the GVariant …).
    @discardableResult
    public static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String,
        pointer handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> UInt {
        GObjectSignal.connect(
            UnsafeMutableRawPointer(instance), name,
            pointer: { p in
                MainActor.assumeIsolated { handler(p) }
            })
    }

    /// One pointer argument, on an opaque object.
    @discardableResult
    public static func connect(
        _ instance: OpaquePointer?, _ name: String,
        pointer handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> UInt {
        GObjectSignal.connect(
            UnsafeMutableRawPointer(instance), name,
            pointer: { p in
                MainActor.assumeIsolated { handler(p) }
            })
    }

    /// One int argument (a dialog's "response").
    @discardableResult
    public static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String, int handler: @escaping @MainActor (Int32) -> Void
    ) -> UInt {
        GObjectSignal.connect(
            UnsafeMutableRawPointer(instance), name,
            int: { v in
                MainActor.assumeIsolated { handler(v) }
            })
    }

    /// Handlers that return a gboolean (TRUE = handled, stop the default), such as "delete-event".
    @discardableResult
    public static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String, returning handler: @escaping @MainActor () -> Bool
    ) -> UInt {
        GObjectSignal.connect(
            UnsafeMutableRawPointer(instance), name,
            returning: { _ in
                MainActor.assumeIsolated { handler() }
            })
    }

    /// Handlers that return a gboolean and take the event pointer ("key-press-event").
    @discardableResult
    public static func connect<T>(
        _ instance: UnsafeMutablePointer<T>?, _ name: String,
        event handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool
    ) -> UInt {
        GObjectSignal.connect(
            UnsafeMutableRawPointer(instance), name,
            returning: { e in
                MainActor.assumeIsolated { handler(e) }
            })
    }
}
