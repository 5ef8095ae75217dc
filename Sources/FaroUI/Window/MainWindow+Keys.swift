internal import CGtk
import FaroGLib

/// The main window's keys (docs/keyboard.md): "Volver" is `win.back` (Alt+Left, the Back key, and Escape when the
/// focused widget does not take it), enabled while a page with a back button (the content view) is shown; F10
/// opens the primary menu (`win.show-primary-menu`), and again closes it; Ctrl+? shows the keyboard shortcuts
/// (`win.show-help-overlay`).
extension MainWindow {
    func installKeys(
        application: UnsafeMutablePointer<GtkApplication>, menuButton: UnsafeMutablePointer<GtkWidget>,
        stack: UnsafeMutablePointer<GtkWidget>
    ) {
        let map = OpaquePointer(window)
        let back = WindowKeys.addAction("back", to: map) { [weak self] in self?.goBack() }
        WindowKeys.addAction("show-primary-menu", to: map) {
            let open = gtk_toggle_button_get_active(cast(menuButton)) != 0
            gtk_toggle_button_set_active(cast(menuButton), open ? 0 : 1)
        }
        WindowKeys.setAccels(application, "win.back", ["<Alt>Left", "Back"])
        WindowKeys.setAccels(application, "win.show-primary-menu", ["F10"])
        // The keyboard shortcuts window (`Resources/ui/shortcuts-window.ui`), under the name GTK gives a window's
        // help overlay (`win.show-help-overlay`). It is built when first asked for, not at launch: a
        // GtkShortcutsWindow holds every section, group and shortcut of the list.
        var shortcuts: UnsafeMutablePointer<GtkWidget>?
        WindowKeys.addAction("show-help-overlay", to: map) { [weak self] in
            guard let self else { return }
            let shown = shortcuts ?? self.buildShortcutsWindow()
            shortcuts = shown
            gtk_window_present(cast(shown))
        }
        WindowKeys.setAccels(application, "win.show-help-overlay", ["<Primary>question"])
        let follow = { [weak self] in
            guard let back else { return }
            g_simple_action_set_enabled(back, self?.hasBack == true ? 1 : 0)
        }
        follow()
        Signal.connect(stack, "notify::visible-child-name", pointer: { _ in follow() })
        WindowKeys.onUnhandledEscape(window) { [weak self] in
            guard let self, self.hasBack else { return false }
            self.goBack()
            return true
        }
    }

    /// The shortcuts window over this one: closing it (Escape, its close button) hides it, and it goes with this
    /// window.
    private func buildShortcutsWindow() -> UnsafeMutablePointer<GtkWidget> {
        let shortcuts = Template("shortcuts-window").widget("shortcuts")
        gtk_window_set_transient_for(cast(shortcuts), cast(window))
        gtk_window_set_destroy_with_parent(cast(shortcuts), 1)
        Signal.connect(shortcuts, "delete-event", event: { _ in gtk_widget_hide_on_delete(shortcuts) != 0 })
        return shortcuts
    }

    /// Whether the page shown has a back button ("Volver").
    var hasBack: Bool { visiblePage == "site" }

    private func goBack() {
        guard hasBack else { return }
        onBack()
    }
}
