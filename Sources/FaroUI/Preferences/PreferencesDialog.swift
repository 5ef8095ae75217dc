internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// Preferences (`Resources/ui/preferences-dialog.ui`; docs/preferences.md): each control shows one settings key and
/// writes it when the user changes it; a change made elsewhere while the dialog is open (`gsettings set`, the menu,
/// the tray) shows at once, because the dialog observes the settings store.
@MainActor
final class PreferencesDialog {
    let dialog: UnsafeMutablePointer<GtkWidget>
    private let template: Template
    private let settings: any SettingsStore
    private let monitoring: MonitoringService
    private let probe: (@MainActor (String, @escaping @MainActor (ConnectionCheck) -> Void) -> Void)?
    private var observation: SettingsObservation?
    /// Set while the dialog itself writes a control, so the control's own signal does not write the key back.
    private var loading = false
    private var keepAlive: PreferencesDialog?
    private var probeRunning = false

    /// Spin buttons: the key, and how many seconds one unit of the control is.
    private let spins: [(id: String, key: String, unit: Double)] = [
        ("exit-period", SettingsKey.exitPeriod.rawValue, 1), ("cool-down", SettingsKey.coolDown.rawValue, 60),
        ("catalog-refresh", SettingsKey.catalogRefreshInterval.rawValue, 60),
        ("visits-retention", SettingsKey.visitsRetentionDays.rawValue, 1),
    ]

    init(
        parent: UnsafeMutablePointer<GtkWidget>?, settings: any SettingsStore, monitoring: MonitoringService,
        probe: (@MainActor (String, @escaping @MainActor (ConnectionCheck) -> Void) -> Void)?
    ) {
        template = Template("preferences-dialog")
        dialog = template.widget("dialog")
        self.settings = settings
        self.monitoring = monitoring
        self.probe = probe
        if let parent { gtk_window_set_transient_for(cast(dialog), cast(parent)) }
        setAccessibleName(dialog, I18n.tr("Preferences"))
        // Every control is named after its label (without the mnemonic underscore).
        let named: [(String, String)] = [
            ("monitoring", "label-monitoring"), ("start-at-login", "label-start-at-login"),
            ("exit-period", "label-exit-period"), ("cool-down", "label-cool-down"),
            ("catalog-refresh", "label-catalog-refresh"), ("adapter", "label-adapter"),
            ("visits-retention", "label-retention"), ("backend-url", "label-backend-url"),
        ]
        for (control, label) in named {
            let text = String(cString: gtk_label_get_label(cast(template.widget(label)))).replacing("_", with: "")
            setAccessibleName(template.widget(control), text)
        }
        FormDialog.nameAfterLabel(template.widget("reset-offset"))
        FormDialog.nameAfterLabel(template.widget("test-connection"))
        setAccessibleName(template.widget("connection-result"), I18n.tr("Connection test result"))
        setAccessibleName(template.widget("adapter-offset"), I18n.tr("Adapter offset"))
        setAccessibleName(template.widget("backend-message"), I18n.tr("Backend URL problem"))
        connect()
        loadAll()
        observation = settings.observe { [weak self] key in
            MainActor.assumeIsolated { self?.load(key) }
        }
        Signal.connect(dialog, "response", int: { [weak self] _ in self?.close() })
        Signal.connect(dialog, "destroy") { [weak self] () -> Void in
            self?.observation?.cancel()
            self?.keepAlive = nil
        }
    }

    /// Shows the dialog; it keeps itself alive until it closes.
    func present() {
        keepAlive = self
        gtk_widget_show(dialog)
        gtk_window_present(cast(dialog))
    }

    private func close() {
        commitURL()
        gtk_widget_destroy(dialog)
    }

    // MARK: settings → controls

    private func loadAll() {
        for key in [
            SettingsKey.monitoring.rawValue, SettingsKey.startAtLogin.rawValue, SettingsKey.adapter.rawValue,
            SettingsKey.backendURL.rawValue,
        ] + spins.map(\.key) {
            load(key)
        }
        showOffset()
    }

    private func load(_ key: String) {
        loading = true
        defer { loading = false }
        let value = settings.string(key)
        switch key {
        case SettingsKey.monitoring.rawValue:
            let on = MonitoringPreference(storedValue: value) != .off
            gtk_switch_set_active(cast(template.widget("monitoring")), on ? 1 : 0)
        case SettingsKey.startAtLogin.rawValue:
            gtk_switch_set_active(cast(template.widget("start-at-login")), value == "true" ? 1 : 0)
        case SettingsKey.adapter.rawValue:
            setEntry("adapter", value ?? "")
            showOffset()
        case SettingsKey.backendURL.rawValue:
            setEntry("backend-url", value ?? "")
            gtk_label_set_text(cast(template.widget("backend-message")), "")
        default:
            guard let spin = spins.first(where: { $0.key == key }), let seconds = value.flatMap(Double.init) else {
                return
            }
            gtk_spin_button_set_value(cast(template.widget(spin.id)), (seconds / spin.unit).rounded())
        }
    }

    private func setEntry(_ id: String, _ text: String) {
        let entry = template.widget(id)
        if String(cString: gtk_entry_get_text(cast(entry))) != text { gtk_entry_set_text(cast(entry), text) }
    }

    // MARK: controls → settings

    private func connect() {
        Signal.connect(
            template.widget("monitoring"), "notify::active",
            pointer: { [weak self] _ in
                guard let self, !self.loading else { return }
                let on = gtk_switch_get_active(cast(self.template.widget("monitoring"))) != 0
                self.settings.setString(
                    SettingsKey.monitoring.rawValue, on ? MonitoringPreference.on.storedValue : "off")
            })
        Signal.connect(
            template.widget("start-at-login"), "notify::active",
            pointer: { [weak self] _ in
                guard let self, !self.loading else { return }
                let on = gtk_switch_get_active(cast(self.template.widget("start-at-login"))) != 0
                self.settings.setString(SettingsKey.startAtLogin.rawValue, on ? "true" : nil)
            })
        for spin in spins {
            Signal.connect(template.widget(spin.id), "value-changed") { [weak self] in
                guard let self, !self.loading else { return }
                let value = gtk_spin_button_get_value_as_int(cast(self.template.widget(spin.id)))
                self.settings.setString(spin.key, String(Int(Double(value) * spin.unit)))
            }
        }
        Signal.connect(template.widget("adapter"), "changed") { [weak self] in
            guard let self, !self.loading else { return }
            let text = String(cString: gtk_entry_get_text(cast(self.template.widget("adapter"))))
                .trimmingWhitespace()
            self.settings.setString(SettingsKey.adapter.rawValue, text.isEmpty ? nil : text)
        }
        Signal.connect(template.widget("backend-url"), "activate") { [weak self] in self?.commitURL() }
        Signal.connect(
            template.widget("backend-url"), "focus-out-event",
            returning: { [weak self] in
                self?.commitURL()
                return false
            })
        Signal.connect(template.widget("reset-offset"), "clicked") { [weak self] in self?.resetOffset() }
        Signal.connect(template.widget("test-connection"), "clicked") { [weak self] in self?.testConnection() }
    }

    /// Stores the URL when the rule allows it; otherwise says the rule and keeps the stored one.
    private func commitURL() {
        let text = String(cString: gtk_entry_get_text(cast(template.widget("backend-url")))).trimmingWhitespace()
        let message = template.widget("backend-message")
        if let problem = BackendURLRule.problem(text) {
            gtk_label_set_text(cast(message), PreferencesText.urlProblem(problem))
            setAccessibleDescription(template.widget("backend-url"), PreferencesText.urlProblem(problem))
            return
        }
        gtk_label_set_text(cast(message), "")
        setAccessibleDescription(template.widget("backend-url"), "")
        let stored = settings.string(SettingsKey.backendURL.rawValue) ?? ""
        if stored != text { settings.setString(SettingsKey.backendURL.rawValue, text.isEmpty ? nil : text) }
    }

    private func showOffset() {
        let adapter = monitoring.adapter
        let text: String
        let recording = adapter == PreferencesText.recordingAdapter
        if let offset = monitoring.calibrations?.offset(adapter: adapter) {
            text = PreferencesText.offset(adapter: adapter, decibels: offset)
        } else if recording {
            text = I18n.tr("Recordings and the demo have no offset.")
        } else {
            text = I18n.localizer.format("No offset for the adapter %@.", adapter)
        }
        gtk_label_set_text(cast(template.widget("adapter-offset")), text)
        gtk_widget_set_sensitive(
            template.widget("reset-offset"), monitoring.calibrations?.offset(adapter: adapter) != nil ? 1 : 0)
    }

    private func resetOffset() {
        do {
            try monitoring.calibrations?.resetOffset(adapter: monitoring.adapter)
            monitoring.reloadCalibration()
        } catch {
            gtk_label_set_text(
                cast(template.widget("adapter-offset")),
                I18n.tr("The offset was not reset: ") + error.problem.message(I18n.localizer))
            return
        }
        showOffset()
    }

    private func testConnection() {
        guard !probeRunning else { return }
        let text = String(cString: gtk_entry_get_text(cast(template.widget("backend-url")))).trimmingWhitespace()
        let result = template.widget("connection-result")
        if let problem = BackendURLRule.problem(text) {
            gtk_label_set_text(cast(result), PreferencesText.urlProblem(problem))
            return
        }
        guard let probe, !text.isEmpty else {
            gtk_label_set_text(cast(result), I18n.tr("Enter the backend URL first."))
            return
        }
        probeRunning = true
        gtk_label_set_text(cast(result), I18n.tr("Testing…"))
        probe(text) { [weak self] check in
            guard let self else { return }
            self.probeRunning = false
            gtk_label_set_text(cast(self.template.widget("connection-result")), PreferencesText.check(check))
        }
    }
}

/// The words of Preferences that depend on values.
@MainActor
enum PreferencesText {
    static func urlProblem(_ problem: BackendURLRule.Problem) -> String {
        switch problem {
        case .notAURL: return I18n.tr("This is not a backend URL; use one like https://example.azurewebsites.net.")
        case .notHTTPS:
            return I18n.tr(
                "The URL must start with https://; plain http is only allowed to this computer (127.0.0.1, ::1, localhost)."
            )
        }
    }

    /// The adapter name recordings and the demo are kept under (an identifier, never shown as such).
    static let recordingAdapter = "replay"

    /// The adapter as the window names it: its address, or "recording or demo".
    static func adapterName(_ adapter: String) -> String {
        adapter == recordingAdapter ? I18n.tr("Recording or demo") : adapter
    }

    static func offset(adapter: String, decibels: Double) -> String {
        let amount = String(cFormat: "%+.1f", decibels)
        if adapter == recordingAdapter {
            return I18n.localizer.format("Recordings and the demo read %@ dB from advertised powers.", amount)
        }
        return I18n.localizer.format("The adapter %@ reads %@ dB from advertised powers.", adapter, amount)
    }

    static func check(_ check: ConnectionCheck) -> String {
        switch check {
        case .connected(let places, let generation):
            let found =
                places.map { I18n.localizer.plural("Connected: %@ place.", "Connected: %@ places.", $0) }
                ?? I18n.tr("Connected; the server does not say how many places it has.")
            return found + " " + I18n.localizer.format("Tables protocol %@.", generation)
        case .refused(let status):
            return I18n.localizer.format("Refused (HTTP %@): check the app key (faro app-key set).", String(status))
        case .notHTTPS: return urlProblem(.notHTTPS)
        case .notAURL: return urlProblem(.notAURL)
        // The details are the network layer's English (for `faro` in a terminal); the window says what to do.
        case .noAnswer:
            return I18n.tr("No answer from the server. Check the network and the URL.")
        case .unexpected:
            return I18n.tr("The server answered, but not as a Faro backend.")
        }
    }
}
