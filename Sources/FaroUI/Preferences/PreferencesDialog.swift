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
    /// The muted places ("Lugares silenciados"), followed while the dialog is open.
    private var mutedObservation: MutedPlacesObservation?
    /// `notify-places`: each choice's radio button.
    private let notifyChoices: [(id: String, value: NotifyPlaces)] = [
        ("notify-all", .all), ("notify-saved", .saved), ("notify-none", .none),
    ]

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
        setAccessibleName(template.widget("muted-list"), I18n.tr("Muted places"))
        connect()
        loadAll()
        observation = settings.observe { [weak self] key in
            MainActor.assumeIsolated { self?.load(key) }
        }
        mutedObservation = monitoring.mutedPlaces?.observe { [weak self] in self?.listMuted() }
        // `faro muted clear` in a terminal changes the list from outside: read it again when the dialog is focused.
        Signal.connect(
            dialog, "focus-in-event",
            returning: { [weak self] in
                self?.listMuted()
                return false
            })
        Signal.connect(dialog, "response", int: { [weak self] _ in self?.close() })
        Signal.connect(dialog, "destroy") { [weak self] () -> Void in
            self?.observation?.cancel()
            self?.mutedObservation?.cancel()
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
            SettingsKey.backendURL.rawValue, SettingsKey.notifyPlaces.rawValue,
        ] + spins.map(\.key) {
            load(key)
        }
        showOffset()
        listMuted()
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
        case SettingsKey.notifyPlaces.rawValue:
            let wanted = NotifyPlaces(storedValue: value)
            for choice in notifyChoices where choice.value == wanted {
                gtk_toggle_button_set_active(cast(template.widget(choice.id)), 1)
            }
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
        for choice in notifyChoices {
            Signal.connect(template.widget(choice.id), "toggled") { [weak self] in
                guard let self, !self.loading,
                    gtk_toggle_button_get_active(cast(self.template.widget(choice.id))) != 0
                else { return }
                self.settings.setString(SettingsKey.notifyPlaces.rawValue, choice.value.rawValue)
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

    /// "Lugares silenciados": one row per muted place with "Volver a avisarme", or the empty state.
    private func listMuted() {
        let list = template.widget("muted-list")
        if let children = gtk_container_get_children(cast(list)) {
            var node: UnsafeMutablePointer<GList>? = children
            while let n = node {
                if let child = n.pointee.data { gtk_widget_destroy(child.assumingMemoryBound(to: GtkWidget.self)) }
                node = n.pointee.next
            }
            g_list_free(children)
        }
        let places = monitoring.mutedPlaces?.all ?? []
        // The empty state is a label beside the list, not its placeholder: a screen reader reaches it.
        gtk_label_set_text(
            cast(template.widget("muted-empty")),
            I18n.tr("No muted places. A notification's “Mute this place” and a place's page add them here."))
        gtk_widget_set_visible(template.widget("muted-frame"), places.isEmpty ? 0 : 1)
        gtk_widget_set_visible(template.widget("muted-empty"), places.isEmpty ? 1 : 0)
        for place in places {
            let name = place.title.isEmpty ? place.business : place.business + " — " + place.title
            let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
            gtk_container_set_border_width(cast(box), 6)
            let label = gtk_label_new(name)
            gtk_label_set_xalign(cast(label), 0)
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
            gtk_widget_set_hexpand(label, 1)
            gtk_container_add(cast(box), label)
            let button = gtk_button_new_with_label(I18n.tr("Notify me again"))
            setAccessibleName(button, I18n.localizer.format("Notify me again about %@", place.business))
            let key = place.key
            Signal.connect(button, "clicked") { [weak self] in self?.unmute(key) }
            gtk_container_add(cast(box), button)
            let row = gtk_list_box_row_new()
            gtk_list_box_row_set_activatable(cast(row), 0)
            setAccessibleName(row, name)
            gtk_container_add(cast(row), box)
            gtk_widget_show_all(row)
            gtk_container_add(cast(list), row)
        }
    }

    private func unmute(_ key: String) {
        do throws(ProfileStoreError) {
            try monitoring.mutedPlaces?.unmute(key: key)
        } catch {
            gtk_label_set_text(
                cast(template.widget("muted-empty")),
                I18n.tr("The change was not stored: ") + error.problem.message(I18n.localizer))
            gtk_widget_show(template.widget("muted-empty"))
        }
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
