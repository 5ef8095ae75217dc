internal import CGtk
internal import CNotify
import FaroApp
import FaroBluetooth
import FaroCore
import FoundationEssentials

/// What the GUI is built from: the scanner, the catalog, the stores. The `faro` executable assembles it (demo
/// or real), tests assemble their own.
public struct GUIEnvironment {
    public var makeSource: @MainActor () -> any AdvertisementSource
    public var catalog: (any CatalogProvider)?
    public var contacts: any ContactDetailsStore
    public var registrations: any RegistrationOutbox
    public var settings: any SettingsStore
    public var outbox: (any OutboxMonitor)?
    /// The microsites, Guardados, sharing ("Guardar", "Compartir").
    public var site: (any SiteServices)?
    /// "Enviar mis datos" and "Calificar sitio".
    public var feedback: (any SiteFeedback)?
    /// The device id sent with content loads, shown in "Acerca de".
    public var deviceID: String
    /// Monotonic seconds.
    public var now: @Sendable () -> Double
    /// Seconds since 1970 (pauses end at wall-clock times).
    public var wallClock: @Sendable () -> Double
    public var timeZone: TimeZone
    /// Whether to show the tray icon (off in tests that have no tray host).
    public var tray: Bool

    public init(
        makeSource: @escaping @MainActor () -> any AdvertisementSource, catalog: (any CatalogProvider)?,
        contacts: any ContactDetailsStore, registrations: any RegistrationOutbox, settings: any SettingsStore,
        deviceID: String, now: @escaping @Sendable () -> Double,
        wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        timeZone: TimeZone = .current, tray: Bool = true
    ) {
        self.makeSource = makeSource
        self.catalog = catalog
        self.contacts = contacts
        self.registrations = registrations
        self.settings = settings
        self.outbox = nil
        self.site = nil
        self.feedback = nil
        self.deviceID = deviceID
        self.now = now
        self.wallClock = wallClock
        self.timeZone = timeZone
        self.tray = tray
    }
}

/// The GtkApplication `io.github.faro.Faro`: single instance, lives on without its window, owns the scanner and
/// the engine, and (re)creates the window when activated.
@MainActor
public final class FaroApplication {
    public static let appID = "io.github.faro.Faro"

    private let app: UnsafeMutablePointer<GtkApplication>
    private let environment: GUIEnvironment
    private var window: MainWindow?
    private var sitePage: SitePage?
    private var savedPage: SavedListPage?
    private var source: (any AdvertisementSource)?
    /// Ranging and the beacon list's rows run on a worker thread; what the main thread keeps of the sightings is
    /// the filter and the regions (zone notifications are raised as a sighting comes).
    private let filter = SightingFilter()
    private var regions = RegionMonitor(regions: [])
    private lazy var list = BeaconListWorker(localize: I18n.localizer) { [weak self] result in self?.received(result) }
    /// Beacons in range at the last result, or 1 after a sighting the worker has not ranged yet: the tick goes on
    /// while any are.
    private var inRange = 0
    private var heardSinceTick = false
    private var scannerState = ScannerState.scanning
    private var catalog: [BeaconIdentity: CatalogPlace] = [:]
    private var asked = Set<BeaconIdentity>()
    private var lastSourceTime: Double?
    private var lastSourceWall = 0.0
    private var menu: UnsafeMutablePointer<GMenuModel>?
    private var monitoring = MonitoringPreference.on
    private var monitoringAction: OpaquePointer?
    private var held = false
    private var tickTimer: UInt32 = 0
    private var resumeTimer: UInt32 = 0
    private var planner = ZoneNotificationPlanner(localize: I18n.localizer)
    private var notifier: ZoneNotifier?
    private var trayIcon: TrayIcon?
    private var autostartAction: OpaquePointer?
    /// Started with `--background` (the autostart entry): the first activation opens no window.
    private var startHidden = false

    public init(environment: GUIEnvironment) {
        I18n.setUp()
        self.environment = environment
        app = gtk_application_new(FaroApplication.appID, G_APPLICATION_DEFAULT_FLAGS)
        DisplaySetup.prepare(app)
        Signal.connect(app, "startup") { [weak self] in self?.startup() }
        Signal.connect(app, "activate") { [weak self] in self?.activate() }
    }

    /// Runs `body` on the GTK main thread (from a worker thread: catalog answers, delivery status).
    public nonisolated static func performOnMain(_ body: @escaping @Sendable @MainActor () -> Void) {
        MainLoop.idle(body)
    }

    /// Runs the main loop until the application quits; returns the exit status. `service` is D-Bus activation
    /// (`--gapplication-service`): start without a window and wait to be activated. `background` (`--background`,
    /// what the autostart entry runs) starts monitoring without a window; when Faro already runs it does nothing.
    public func run(service: Bool = false, background: Bool = false) -> Int32 {
        let quit: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            guard let data else { return 0 }
            g_application_quit(cast(data, to: GApplication.self))
            return 0
        }
        g_unix_signal_add(SIGTERM, quit, UnsafeMutableRawPointer(app))
        g_unix_signal_add(SIGINT, quit, UnsafeMutableRawPointer(app))
        if background {
            var error: UnsafeMutablePointer<GError>?
            if g_application_register(cast(app), nil, &error) != 0, g_application_get_is_remote(cast(app)) != 0 {
                return 0
            }
            if let error { g_error_free(error) }
            startHidden = true
        }
        var words = ["faro"] + (service ? ["--gapplication-service"] : [])
        var argv = words.map { strdup($0) }
        defer { for p in argv { free(p) } }
        words.removeAll()
        let status = g_application_run(cast(app), Int32(argv.count), &argv)
        source?.stop {}
        list.stop()
        return status
    }

    private func startup() {
        IndicatorAssets.install()
        addAction("contact") { [weak self] in self?.showContactForm() }
        addAction("register") { [weak self] in self?.showRegisterForm() }
        addAction("about") { [weak self] in self?.showAbout() }
        addAction("show-beacons") { [weak self] in self?.showBeacons() }
        addAction("quit") { [weak self] in
            guard let self else { return }
            g_application_quit(cast(self.app))
        }
        addAction("pause-hour") { [weak self] in
            guard let self else { return }
            self.apply(.pausedForAnHour(from: self.environment.wallClock()))
        }
        addAction("pause-tomorrow") { [weak self] in
            guard let self else { return }
            self.apply(.pausedUntilTomorrow(from: self.environment.wallClock(), timeZone: self.environment.timeZone))
        }
        addMonitoringAction()
        addAutostartAction()
        setAccels("app.quit", ["<Control>q"])
        menu = makeMenu()
        let notifier = ZoneNotifier(appID: FaroApplication.appID)
        notifier.onOpenList = { [weak self] in
            self?.planner.closed()
            self?.showBeacons()
        }
        notifier.onOpenSite = { [weak self] place in
            self?.planner.closed()
            self?.openPlace(place)
        }
        notifier.onClosed = { [weak self] in self?.planner.closed() }
        notifier.onUnavailable = { [weak self] reason in
            guard let self else { return }
            let names = self.planner.places.map(\.cliente).joined(separator: ", ")
            self.window?.setStatus(I18n.localizer.format("Nearby: %@", names))
            _ = reason
        }
        self.notifier = notifier
        if environment.tray {
            trayIcon = TrayIcon(
                appID: FaroApplication.appID,
                actions: TrayIcon.Actions(
                    open: { [weak self] in self?.showBeacons() },
                    setMonitoring: { [weak self] on in self?.apply(on ? .on : .off) },
                    pauseHour: { [weak self] in
                        guard let self else { return }
                        self.apply(.pausedForAnHour(from: self.environment.wallClock()))
                    },
                    pauseTomorrow: { [weak self] in
                        guard let self else { return }
                        self.apply(
                            .pausedUntilTomorrow(
                                from: self.environment.wallClock(),
                                timeZone: self.environment.timeZone))
                    },
                    quit: { [weak self] in
                        guard let self else { return }
                        g_application_quit(cast(self.app))
                    }))
        }
        let stored = MonitoringPreference(storedValue: environment.settings.string(SettingsKey.monitoring))
        apply(stored.normalized(at: environment.wallClock()))
    }

    // MARK: monitoring

    /// Switches monitoring on, off or to a pause: persists it, starts or stops the scanner, keeps the application
    /// alive without its window only while monitoring is wanted, and brings both menus in line.
    private func apply(_ preference: MonitoringPreference) {
        monitoring = preference
        environment.settings.setString(SettingsKey.monitoring, preference.storedValue)
        let now = environment.wallClock()
        let active = preference.isActive(at: now)
        if active {
            if source == nil { startScanning() }
            if scannerState == .paused { scannerState = .scanning }
        } else {
            stopScanning()
            scannerState = .paused
        }
        if resumeTimer != 0 {
            g_source_remove(resumeTimer)
            resumeTimer = 0
        }
        if case .paused(let until) = preference, until > now {
            let seconds = UInt32(min(until - now, Double(UInt32.max / 1000)).rounded(.up))
            resumeTimer = MainLoop.once(seconds: seconds) { [weak self] in
                self?.resumeTimer = 0
                self?.apply(.on)
            }
        }
        let wantsBackground = preference != .off
        if wantsBackground, !held {
            g_application_hold(cast(app))
            held = true
        } else if !wantsBackground, held {
            g_application_release(cast(app))
            held = false
        }
        if let action = monitoringAction {
            g_simple_action_set_state(action, g_variant_new_boolean(active ? 1 : 0))
        }
        trayIcon?.setMonitoring(active)
        render()
        scheduleTicks()
    }

    private func addMonitoringAction() {
        let action = g_simple_action_new_stateful("monitoring", nil, g_variant_new_boolean(1))
        Signal.connect(
            cast(action, to: GObject.self), "change-state",
            pointer: { [weak self] value in
                guard let self, let value else { return }
                let on = g_variant_get_boolean(OpaquePointer(value)) != 0
                self.apply(on ? .on : .off)
            })
        g_action_map_add_action(OpaquePointer(app), action)
        monitoringAction = action
    }

    private func activate() {
        if startHidden {
            startHidden = false
            return
        }
        showBeacons()
    }

    // MARK: autostart

    /// "Start at login": a check item whose state is whether the XDG autostart entry exists.
    private func addAutostartAction() {
        let action = g_simple_action_new_stateful("autostart", nil, g_variant_new_boolean(Autostart.isEnabled ? 1 : 0))
        Signal.connect(
            cast(action, to: GObject.self), "change-state",
            pointer: { [weak self] value in
                guard let self, let value, let action = self.autostartAction else { return }
                let wanted = g_variant_get_boolean(OpaquePointer(value)) != 0
                do {
                    try Autostart.set(wanted)
                } catch {
                    self.window?.setStatus(I18n.tr("Could not change starting at login: ") + "\(error)")
                }
                g_simple_action_set_state(action, g_variant_new_boolean(Autostart.isEnabled ? 1 : 0))
            })
        g_action_map_add_action(OpaquePointer(app), action)
        autostartAction = action
    }

    private func showBeacons() {
        if window == nil, let menu {
            let w = MainWindow(application: app, menu: menu)
            w.beacons.onActivate = { [weak self] identity in self?.openSite(identity) }
            if let services = environment.site {
                // The content view is built when a site is first opened (siteView()), not before the first frame.
                let saved = SavedListPage(services: services)
                saved.onOpen = { [weak self] entry in self?.openSaved(entry.id, title: entry.title) }
                w.addPage(saved.root, name: "saved", title: I18n.tr("Saved"))
                savedPage = saved
            }
            w.onRetry = { [weak self] in self?.environment.outbox?.retryNow() }
            Signal.connect(
                w.window, "delete-event",
                returning: { [weak self] in
                    self?.windowClosing()
                    return false
                })
            Signal.connect(
                w.window, "destroy",
                { [weak self] () -> Void in
                    self?.sitePage?.leave()
                    self?.sitePage = nil
                    self?.savedPage = nil
                    self?.window = nil
                    self?.scheduleTicks()
                })
            window = w
            BenchmarkHooks.attach(w, application: app)
            render()
        }
        window?.showPage("beacons")
        window?.present()
        scheduleTicks()
    }

    /// The content view, built and added to the window the first time a site is opened.
    private func siteView() -> SitePage? {
        if let sitePage { return sitePage }
        guard let window, let services = environment.site, let feedback = environment.feedback else { return nil }
        let site = SitePage(services: services, feedback: feedback)
        site.onBack = { [weak self] in
            self?.sitePage?.leave()
            self?.window?.showPage("beacons")
        }
        site.onSaved = { [weak self] in self?.savedPage?.reload() }
        site.onOpenSaved = { [weak self] id in self?.openSaved(id, title: nil) }
        window.addHiddenPage(site.root, name: "site")
        sitePage = site
        return site
    }

    /// Opens a place's microsite in the content view (catalogued beacons only: others have no site).
    private func openSite(_ identity: BeaconIdentity) {
        guard let place = catalog[identity] else {
            window?.setStatus(I18n.tr("This beacon is not in the catalog: it has no site to open."))
            return
        }
        openPlace(place)
    }

    private func openPlace(_ place: CatalogPlace) {
        showBeacons()
        guard let sitePage = siteView() else { return }
        window?.showPage("site")
        sitePage.open(place)
    }

    private func openSaved(_ id: Int64, title: String?) {
        guard let services = environment.site, let sitePage = siteView() else { return }
        do {
            let site = try services.openSaved(id)
            let name = title ?? services.savedSites().first { $0.id == id }?.title ?? site.url
            window?.showPage("site")
            sitePage.showSaved(site, title: name)
        } catch {
            window?.setStatus(I18n.tr("The saved page could not be opened: ") + error.description)
        }
    }

    /// The first time the window closes while monitoring goes on, say that Faro keeps watching (once, ever).
    private func windowClosing() {
        guard monitoring != .off, environment.settings.string(SettingsKey.toldAboutBackground) == nil else { return }
        environment.settings.setString(SettingsKey.toldAboutBackground, "yes")
        let n = notify_notification_new(
            I18n.tr("Faro keeps looking for places"),
            I18n.tr("Background monitoring goes on with the window closed. Turn it off from the menu or the tray."),
            FaroApplication.appID)
        if let n {
            notify_notification_show(n, nil)
            g_object_unref(UnsafeMutableRawPointer(n))
        }
    }

    // MARK: scanning

    private func stopScanning() {
        // Kept alive until it has stopped: the BlueZ source's StopDiscovery answers later.
        let stopping = source
        stopping?.stop { _ = stopping }
        source = nil
        list.reset()
        inRange = 0
        heardSinceTick = false
        // Nothing is known to be in range any more: the next sighting after a resume is an entry again (announced
        // only outside the cool-down), and the next source's clock starts afresh.
        regions.tick(at: .infinity) { _ in }
        lastSourceTime = nil
        trayIcon?.setNearbyCount(0)
    }

    private func startScanning() {
        let source = environment.makeSource()
        self.source = source
        do {
            try source.start { [weak self] event in
                MainActor.assumeIsolated { self?.handle(event) }
            }
        } catch {
            scannerState = .unavailable(error.description)
        }
    }

    private func handle(_ event: SourceEvent) {
        switch event {
        case .sighting(let s):
            guard monitoring.isActive(at: environment.wallClock()) else { return }
            guard filter.accepts(s.beacon, rssi: s.rssi) else { return }
            var entries: [RegionEvent] = []
            list.observe(s)
            regions.observe(s.beacon.identity, at: s.time) { entries.append($0) }
            inRange = max(inRange, 1)
            heardSinceTick = true
            lastSourceTime = max(lastSourceTime ?? s.time, s.time)
            lastSourceWall = environment.now()
            if !asked.contains(s.beacon.identity) { lookUp(s.beacon.identity) }
            for event in entries { regionEvent(event) }
            if tickTimer == 0 { scheduleTicks() }
        case .state(let state):
            scannerState = FaroApplication.scannerState(state)
        case .failed(let error):
            scannerState = .unavailable(error.description)
        }
    }

    static func scannerState(_ state: SourceState) -> ScannerState {
        switch state {
        case .scanning, .resumed, .finished: return .scanning
        case .poweredOff: return .bluetoothOff
        case .adapterMissing: return .noAdapter
        case .waitingForService, .serviceGone, .accessDenied: return .unavailable(state.description)
        }
    }

    private func lookUp(_ identity: BeaconIdentity) {
        asked.insert(identity)
        environment.catalog?.lookup(identity) { [weak self] place in
            guard let self, let place else { return }
            self.catalog[identity] = place
            // Each catalogued place is a region: its entry raises the zone notification.
            self.regions.add(
                Region(
                    identifier: FaroApplication.regionID(identity), uuid: identity.uuid,
                    major: identity.major, minor: identity.minor))
            self.render()
        }
    }

    static func regionID(_ identity: BeaconIdentity) -> String {
        "\(identity.uuid)/\(identity.major)/\(identity.minor)"
    }

    private func regionEvent(_ event: RegionEvent) {
        guard event.kind == .enter, let beacon = event.beacon else { return }
        let active = monitoring.isActive(at: environment.wallClock())
        if let notification = planner.entered(event, place: catalog[beacon], monitoringActive: active) {
            notifier?.show(notification)
        }
    }

    /// The 1 Hz tick runs while the window is open or beacons are in range; with nothing to show and nothing in
    /// range it stops, so an idle Faro in the background does not wake up periodically.
    private func scheduleTicks() {
        let needed = monitoring.isActive(at: environment.wallClock()) && (window != nil || inRange > 0)
        if needed, tickTimer == 0 {
            tickTimer = MainLoop.every(milliseconds: 1000) { [weak self] in
                guard let self else { return false }
                self.tick()
                let keep = self.window != nil || self.inRange > 0
                if !keep { self.tickTimer = 0 }
                return keep
            }
        } else if !needed, tickTimer != 0 {
            g_source_remove(tickTimer)
            tickTimer = 0
        }
    }

    /// Once a second: advance the regions and, on the worker, the engine on the source's clock; the list is
    /// refreshed in place when the result comes back (`received`).
    private func tick() {
        let time: Double
        if let last = lastSourceTime { time = last + (environment.now() - lastSourceWall) } else { time = 0 }
        regions.tick(at: time) { _ in }
        heardSinceTick = false
        list.tick(at: time, inputs: listInputs)
        renderStatus()
    }

    /// Asks for the list again (the catalog, the scanner's state or the window changed).
    private func render() {
        list.refresh(listInputs)
        renderStatus()
    }

    private var listInputs: BeaconListWorker.Inputs {
        BeaconListWorker.Inputs(catalog: catalog, state: scannerState, list: window != nil)
    }

    private func renderStatus() {
        guard let window, let counts = environment.outbox?.counts else { return }
        window.setOutboxStatus(
            outboxStatusText(
                pending: counts.pending, failed: counts.failed,
                localize: I18n.localizer))
    }

    /// A result from the worker: the counts, and the list for the window.
    private func received(_ result: BeaconListTickResult) {
        inRange = result.inRange + (heardSinceTick ? 1 : 0)
        trayIcon?.setNearbyCount(result.catalogued)
        if let update = result.list { window?.beacons.show(update) }
    }

    // MARK: forms

    private func showContactForm() {
        let current = (try? environment.contacts.loadContactDetails()) ?? nil
        let fields: [FormDialog.Field] = [
            .init(
                field: .nombre, label: I18n.tr("_Name"), purpose: GTK_INPUT_PURPOSE_NAME, initial: current?.nombre ?? ""
            ),
            .init(
                field: .email, label: I18n.tr("_E-mail"), purpose: GTK_INPUT_PURPOSE_EMAIL,
                initial: current?.email ?? ""),
            .init(
                field: .telefono, label: I18n.tr("_Phone"), purpose: GTK_INPUT_PURPOSE_PHONE,
                initial: current?.telefono ?? ""),
            .init(
                field: .empresa, label: I18n.tr("C_ompany"), purpose: GTK_INPUT_PURPOSE_FREE_FORM,
                initial: current?.empresa ?? ""),
        ]
        let store = environment.contacts
        let dialog = FormDialog(
            parent: window?.window, title: I18n.tr("My contact details"), accept: I18n.tr("_Save"), fields: fields,
            note: I18n.tr(contactDisclaimerMsgid)
        ) { values in
            switch ContactDetails.validate(
                nombre: values[.nombre] ?? "", email: values[.email] ?? "",
                telefono: values[.telefono] ?? "", empresa: values[.empresa] ?? "")
            {
            case .failure(let errors):
                return FormMessages(errors, localize: I18n.localizer)
            case .success(let details):
                do {
                    try store.saveContactDetails(details)
                    return nil
                } catch {
                    return FormMessages(byField: [.nombre: I18n.tr("Could not save: ") + "\(error)"])
                }
            }
        }
        dialog.present()
    }

    private func showRegisterForm() {
        let fields: [FormDialog.Field] = [
            .init(field: .nombre, label: I18n.tr("_Name"), purpose: GTK_INPUT_PURPOSE_NAME, initial: ""),
            .init(field: .email, label: I18n.tr("_E-mail"), purpose: GTK_INPUT_PURPOSE_EMAIL, initial: ""),
            .init(field: .telefono, label: I18n.tr("_Phone"), purpose: GTK_INPUT_PURPOSE_PHONE, initial: ""),
        ]
        let outbox = environment.registrations
        let dialog = FormDialog(
            parent: window?.window, title: I18n.tr("Register my business"), accept: I18n.tr("_Send"), fields: fields,
            note: I18n.tr("We will contact you to add your business to Faro.")
        ) { [weak self] values in
            switch BusinessRegistration.validate(
                nombre: values[.nombre] ?? "", email: values[.email] ?? "",
                telefono: values[.telefono] ?? "")
            {
            case .failure(let errors):
                return FormMessages(errors, localize: I18n.localizer)
            case .success(let registration):
                do {
                    _ = try outbox.submit(registration)
                    self?.window?.setStatus(
                        I18n.tr("Registration saved; it is sent as soon as the server is reachable."))
                    return nil
                } catch {
                    return FormMessages(byField: [.nombre: I18n.tr("Could not save: ") + "\(error)"])
                }
            }
        }
        dialog.present()
    }

    private func showAbout() {
        let about = gtk_about_dialog_new()
        gtk_window_set_transient_for(cast(about), cast(window?.window))
        gtk_window_set_modal(cast(about), 1)
        gtk_about_dialog_set_program_name(cast(about), "Faro")
        gtk_about_dialog_set_logo_icon_name(cast(about), FaroApplication.appID)
        gtk_about_dialog_set_comments(
            cast(about),
            I18n.tr("Finds the beacons near you and opens the sites of their places.")
                + "\n\n" + I18n.tr("Device id sent with each page: ") + environment.deviceID)
        gtk_about_dialog_set_license_type(cast(about), GTK_LICENSE_GPL_3_0)
        Signal.connect(about, "response", int: { _ in gtk_widget_destroy(about) })
        gtk_widget_show_all(about)
    }

    // MARK: actions and menu

    private func addAction(_ name: String, _ body: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)
        Signal.connect(cast(action, to: GObject.self), "activate", pointer: { _ in body() })
        g_action_map_add_action(OpaquePointer(app), action)
        g_object_unref(UnsafeMutableRawPointer(action))
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

    private func makeMenu() -> UnsafeMutablePointer<GMenuModel>? {
        let menu = g_menu_new()
        let monitor = g_menu_new()
        g_menu_append(monitor, I18n.tr("Background monitoring"), "app.monitoring")
        g_menu_append(monitor, I18n.tr("Pause for one hour"), "app.pause-hour")
        g_menu_append(monitor, I18n.tr("Pause until tomorrow"), "app.pause-tomorrow")
        g_menu_append(monitor, I18n.tr("Start at login"), "app.autostart")
        g_menu_append_section(menu, nil, cast(monitor, to: GMenuModel.self))
        let forms = g_menu_new()
        g_menu_append(forms, I18n.tr("My contact details"), "app.contact")
        g_menu_append(forms, I18n.tr("Register my business"), "app.register")
        let other = g_menu_new()
        g_menu_append(other, I18n.tr("About Faro"), "app.about")
        g_menu_append(other, I18n.tr("Quit"), "app.quit")
        g_menu_append_section(menu, nil, cast(forms, to: GMenuModel.self))
        g_menu_append_section(menu, nil, cast(other, to: GMenuModel.self))
        return cast(menu, to: GMenuModel.self)
    }
}
