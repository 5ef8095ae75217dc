internal import CGtk
import FaroGLib

/// The application's GActions (`app.*`): what the primary menu, the keyboard shortcuts and D-Bus activation call.
/// Two are stateful check items: `app.monitoring` (background monitoring on/off) and `app.autostart` ("Iniciar al
/// entrar"); their state is set from outside with `setMonitoring` and `setAutostart`.
@MainActor
final class ApplicationActions {
    /// What each action does.
    struct Handlers {
        var contact: @MainActor () -> Void
        var register: @MainActor () -> Void
        var about: @MainActor () -> Void
        var showBeacons: @MainActor () -> Void
        var quit: @MainActor () -> Void
        var pauseHour: @MainActor () -> Void
        var pauseTomorrow: @MainActor () -> Void
        var setMonitoring: @MainActor (Bool) -> Void
        /// Returns the state the autostart entry really has afterwards.
        var setAutostart: @MainActor (Bool) -> Bool
        /// The backend's settings or app key may have changed (activated by `faro app-key set` over D-Bus).
        var reloadBackend: @MainActor () -> Void
        /// Preferences.
        var preferences: @MainActor () -> Void
        /// "Calibrar a 1 m" for the beacon `UUID:MAJOR:MINOR` (the row menu; tests activate it over D-Bus).
        var calibrate: @MainActor (String) -> Void
        /// A beacon's page for `UUID:MAJOR:MINOR`.
        var details: @MainActor (String) -> Void
    }

    private let app: UnsafeMutablePointer<GtkApplication>
    private var monitoring: OpaquePointer?
    private var autostart: OpaquePointer?

    init(app: UnsafeMutablePointer<GtkApplication>, autostartEnabled: Bool, handlers: Handlers) {
        self.app = app
        add("contact", handlers.contact)
        add("register", handlers.register)
        add("about", handlers.about)
        add("show-beacons", handlers.showBeacons)
        add("quit", handlers.quit)
        add("pause-hour", handlers.pauseHour)
        add("pause-tomorrow", handlers.pauseTomorrow)
        add("reload-backend", handlers.reloadBackend)
        add("preferences", handlers.preferences)
        addWithText("calibrate", handlers.calibrate)
        addWithText("details", handlers.details)
        monitoring = addToggle("monitoring", initially: true) { wanted, _ in
            handlers.setMonitoring(wanted)
            return nil
        }
        autostart = addToggle("autostart", initially: autostartEnabled) { wanted, _ in handlers.setAutostart(wanted) }
        setAccels("app.quit", ["<Control>q"])
        setAccels("app.preferences", ["<Control>comma"])
        // The main window's own action (MainWindow): opens the search bar over the list shown.
        setAccels("win.search", ["<Control>f"])
    }

    /// Brings the "Start at login" check item in line (the setting changed from outside).
    func setAutostart(_ on: Bool) {
        if let autostart { g_simple_action_set_state(autostart, g_variant_new_boolean(on ? 1 : 0)) }
    }

    /// Brings the monitoring check item in line (the tray or a pause changed it).
    func setMonitoring(_ active: Bool) {
        if let monitoring { g_simple_action_set_state(monitoring, g_variant_new_boolean(active ? 1 : 0)) }
    }

    private func add(_ name: String, _ body: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)
        Signal.connect(action, "activate", pointer: { _ in body() })
        g_action_map_add_action(OpaquePointer(app), action)
        GObjectSignal.unref(UnsafeMutableRawPointer(action))
    }

    /// An action with a string parameter.
    private func addWithText(_ name: String, _ body: @escaping @MainActor (String) -> Void) {
        let action = g_simple_action_new(name, g_variant_type_new("s"))
        Signal.connect(
            action, "activate",
            pointer: { parameter in
                guard let parameter, let text = g_variant_get_string(OpaquePointer(parameter), nil) else { return }
                body(String(cString: text))
            })
        g_action_map_add_action(OpaquePointer(app), action)
        GObjectSignal.unref(UnsafeMutableRawPointer(action))
    }

    /// A boolean action; `change` gets the wanted state and returns the state to show (nil: the wanted one).
    private func addToggle(
        _ name: String, initially on: Bool, change: @escaping @MainActor (Bool, OpaquePointer) -> Bool?
    ) -> OpaquePointer? {
        guard let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(on ? 1 : 0)) else {
            return nil
        }
        Signal.connect(
            action, "change-state",
            pointer: { value in
                guard let value else { return }
                let wanted = g_variant_get_boolean(OpaquePointer(value)) != 0
                let shown = change(wanted, action) ?? wanted
                g_simple_action_set_state(action, g_variant_new_boolean(shown ? 1 : 0))
            })
        g_action_map_add_action(OpaquePointer(app), action)
        return action
    }

    private func setAccels(_ action: String, _ accels: [String]) {
        var cStrings = accels.map { strdup($0) } + [nil]
        cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(app, action, $0)
            }
        }
        for p in cStrings { free(p) }
    }
}
