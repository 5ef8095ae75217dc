internal import CGtk
import FaroGLib

/// The keyboard shortcuts of Faro's windows (docs/keyboard.md), as GNOME's HIG has them: actions with accelerators
/// where a key stands for a command (`win.back` Alt+Left, `win.show-primary-menu` F10; the application's own in
/// `ApplicationActions`), and Escape as the last resort of a window, once the focused widget (an entry, a popover)
/// has had its turn.
@MainActor
enum WindowKeys {
    /// Sets the keys of `action` ("app.quit", "win.back") on the application.
    static func setAccels(
        _ application: UnsafeMutablePointer<GtkApplication>, _ action: String, _ accels: [String]
    ) {
        var cStrings = accels.map { strdup($0) } + [nil]
        cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(application, action, $0)
            }
        }
        for p in cStrings { free(p) }
    }

    /// Adds a plain action `name` to `map` (a GtkApplicationWindow's `win.*`) and returns it (owned by the map).
    @discardableResult
    static func addAction(_ name: String, to map: OpaquePointer, _ body: @escaping @MainActor () -> Void)
        -> OpaquePointer?
    {
        guard let action = g_simple_action_new(name, nil) else { return nil }
        Signal.connect(action, "activate", pointer: { _ in body() })
        g_action_map_add_action(map, action)
        GObjectSignal.unref(UnsafeMutableRawPointer(action))
        return action
    }

    /// Whether a key event is `keyval` pressed with exactly `modifiers` (Shift, Control, Alt, Super…; lock keys
    /// ignored).
    static func isKey(
        _ event: UnsafeMutableRawPointer, _ keyval: Int32, modifiers: GdkModifierType = GdkModifierType(0)
    ) -> Bool {
        let key = event.assumingMemoryBound(to: GdkEventKey.self).pointee
        let mask = gtk_accelerator_get_default_mod_mask().rawValue
        return key.type == GDK_KEY_PRESS && key.keyval == guint(keyval) && key.state & mask == modifiers.rawValue
    }

    /// Calls `escape` when Escape reaches `window` and nothing focused in it took the key (a popover closes, an entry
    /// with a search stops it first): `escape` returns whether it did something.
    static func onUnhandledEscape(
        _ window: UnsafeMutablePointer<GtkWidget>, _ escape: @escaping @MainActor () -> Bool
    ) {
        Signal.connect(
            window, "key-press-event",
            event: { event in
                guard let event, isKey(event, GDK_KEY_Escape) else { return false }
                // The focused widget and its parents first, as GTK would after this handler.
                if gtk_window_propagate_key_event(cast(window), cast(event, to: GdkEventKey.self)) != 0 { return true }
                return escape()
            })
    }

    /// A secondary window (a beacon's page) closes with Ctrl+W, and with Escape when nothing in it takes the key.
    static func closesFromKeyboard(_ window: UnsafeMutablePointer<GtkWidget>) {
        onUnhandledEscape(window) {
            gtk_window_close(cast(window))
            return true
        }
        Signal.connect(
            window, "key-press-event",
            event: { event in
                guard let event, isKey(event, GDK_KEY_w, modifiers: GDK_CONTROL_MASK) else { return false }
                gtk_window_close(cast(window))
                return true
            })
    }
}
