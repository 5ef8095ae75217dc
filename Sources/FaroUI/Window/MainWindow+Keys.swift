internal import CGtk
import FaroGLib

/// The main window's keys (docs/keyboard.md): "Volver" is `win.back` (Alt+Left, the Back key, and Escape when the
/// focused widget does not take it), enabled while a page with a back button (the content view) is shown; F10
/// opens the primary menu (`win.show-primary-menu`), and again closes it; Ctrl+? shows the keyboard shortcuts.
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
        // The keyboard shortcuts window (`Resources/ui/shortcuts-window.ui`): as the window's help overlay, GTK
        // gives it the action `win.show-help-overlay`, and keeps it (hidden when closed) with the window.
        let shortcuts = Template("shortcuts-window")
        gtk_application_window_set_help_overlay(cast(window), cast(shortcuts.widget("shortcuts")))
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

    /// Whether the page shown has a back button ("Volver").
    var hasBack: Bool { visiblePage == "site" }

    private func goBack() {
        guard hasBack else { return }
        onBack()
    }
}
