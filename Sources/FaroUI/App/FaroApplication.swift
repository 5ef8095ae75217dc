internal import CGtk
internal import CShim
import FaroApp
import FaroCore
import FaroGLib
import FoundationEssentials

/// The GtkApplication `io.github.faro.Faro` (`.Devel` in a development-profile install): single instance, lives on without its window while monitoring is
/// wanted, and (re)creates the window when activated. It is wiring only: monitoring, the beacon session and the
/// use cases live in FaroApp; this class creates the views, carries out `MonitoringUpdate`s and forwards the
/// user's intents.
@MainActor
public final class FaroApplication {
    private let app: UnsafeMutablePointer<GtkApplication>
    private let environment: GUIEnvironment
    private let monitoring: MonitoringService
    /// The session's beacon lists, observed by the window's list page.
    private let listFeed: BeaconListFeed
    private let autostart: Autostart
    private var actions: ApplicationActions?
    private var windows: WindowController!
    private var notifier: ZoneNotifier?
    private var trayIcon: TrayIcon?
    /// The last monitoring state and nearby count, for a tray icon made after they were reported.
    private var scanning: Bool?
    private var nearby: Int?
    private var settingsObservation: SettingsObservation?
    /// Whether the application is held (kept alive with its window closed).
    private var held = false
    /// Started with `--background` (the autostart entry): the first activation opens no window.
    private var startHidden = false
    private let launchWork: LaunchWork
    /// Whether the status line shows that the scanner hears nothing.
    private var showsQuietScanner = false
    /// logind's sleep and resume (nil when not followed).
    private var sleepWatch: SleepWatch?

    public init(environment: GUIEnvironment) {
        I18n.setUp()
        self.environment = environment
        launchWork = LaunchWork(environment.afterFirstFrame)
        autostart = Autostart(appID: environment.appID)
        var monitoringEnvironment = MonitoringEnvironment(
            makeSource: environment.makeSource, settings: environment.settings, places: environment.places,
            scheduler: GLibScheduler(), hop: { body in MainThread.run { body() } },
            machineClock: environment.machineClock, wallClock: environment.wallClock,
            timeZone: environment.timeZone, localize: I18n.localizer, session: environment.session)
        monitoringEnvironment.calibrations = environment.calibrations
        monitoringEnvironment.visits = environment.visits
        monitoringEnvironment.mutedPlaces = environment.mutedPlaces.map {
            MutedPlaces(store: $0, clock: environment.wallClock)
        }
        monitoringEnvironment.hasSavedPage = { [site = environment.site] url in site?.savedCopy(of: url) != nil }
        monitoringEnvironment.adapterName = environment.adapterName
        monitoringEnvironment.releaseFreeMemory = { faro_release_free_heap() }
        listFeed = BeaconListFeed(hop: MainThread.hop)
        monitoringEnvironment.listFeed = listFeed
        monitoring = MonitoringService(environment: monitoringEnvironment)
        // The demo runs beside a real Faro, never handing over to it (it would show the user's own data).
        app = gtk_application_new(
            environment.appID, environment.uniqueInstance ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE)
        DisplaySetup.prepare(app)
        monitoring.onUpdate = { [weak self] update in self?.update(update) }
        Signal.connect(app, "startup") { [weak self] in self?.startup() }
        Signal.connect(app, "activate") { [weak self] in self?.activate() }
    }

    /// Runs `body` on the GTK main thread (from a worker thread: page loads, saves, catalog answers).
    public nonisolated static func performOnMain(_ body: @escaping @Sendable @MainActor () -> Void) {
        MainThread.run(body)
    }

    /// Runs the main loop until the application quits; returns the exit status. `service` is D-Bus activation
    /// (`--gapplication-service`): start without a window and wait to be activated. `background` (`--background`,
    /// what the autostart entry runs) starts monitoring without a window; when Faro already runs it does nothing.
    public func run(service: Bool = false, background: Bool = false) -> Int32 {
        let application = UnsafeMutableRawPointer(app)
        for signal in [SIGTERM, SIGINT] {
            MainContextSources.addUnixSignal(signal) {
                g_application_quit(cast(application, to: GApplication.self))
                return true
            }
        }
        if background {
            var error: UnsafeMutablePointer<GError>?
            if g_application_register(cast(app), nil, &error) != 0, g_application_get_is_remote(cast(app)) != 0 {
                return 0
            }
            if let error { g_error_free(error) }
            startHidden = true
        }
        let words: [String] = ["faro"] + (service ? ["--gapplication-service"] : [])
        var argv = words.map { strdup($0) }
        defer { for p in argv { free(p) } }
        let status = g_application_run(cast(app), Int32(argv.count), &argv)
        monitoring.stop()
        sleepWatch?.stop()
        return status
    }

    /// Preferences, over the window when there is one.
    private func showPreferences() {
        PreferencesDialog(
            parent: windows.window?.window, settings: environment.settings, monitoring: monitoring,
            probe: environment.probeConnection
        ).present()
    }

    private func startup() {
        IndicatorAssets.install()
        ResourceBundle.installStyle()
        let monitoring = monitoring
        actions = ApplicationActions(
            app: app, autostartEnabled: autostart.isEnabled,
            handlers: ApplicationActions.Handlers(
                contact: { [weak self] in self?.showContactForm() },
                register: { [weak self] in self?.showRegisterForm() },
                about: { [weak self] in
                    AboutDialog.present(
                        parent: self?.windows.window?.window, deviceID: self?.deviceID ?? "",
                        icon: self?.environment.appID ?? "")
                },
                showBeacons: { [weak self] in self?.showBeacons() },
                quit: { [weak self] in self?.quit() },
                pauseHour: { monitoring.pauseForAnHour() },
                pauseTomorrow: { monitoring.pauseUntilTomorrow() },
                setMonitoring: { on in monitoring.apply(on ? .on : .off) },
                setAutostart: { [weak self] wanted in self?.setAutostart(wanted) ?? false },
                reloadBackend: { [weak self] in self?.environment.reloadBackend?() },
                preferences: { [weak self] in self?.showPreferences() },
                calibrate: { [weak self] text in
                    guard let identity = BeaconIdentity(colonSeparated: text) else { return }
                    self?.windows.calibrate(identity)
                },
                details: { [weak self] text in
                    guard let identity = BeaconIdentity(colonSeparated: text) else { return }
                    self?.windows.showDetails(identity)
                }))
        windows = WindowController(
            application: app, menu: ApplicationMenu.make(), environment: environment, monitoring: monitoring,
            listFeed: listFeed)
        windows.onClosing = { [weak self] in self?.windowClosing() }
        notifier = makeNotifier()
        if environment.tray {
            // The first frame does not wait for the tray: it comes with the launch work, in the state it missed.
            launchWork.prepend { [weak self] in
                guard let self else { return }
                self.trayIcon = TrayIcon(
                    appID: self.environment.appID,
                    actions: TrayIcon.Actions(
                        open: { [weak self] in self?.showBeacons() },
                        setMonitoring: { on in monitoring.apply(on ? .on : .off) },
                        pauseHour: { monitoring.pauseForAnHour() },
                        pauseTomorrow: { monitoring.pauseUntilTomorrow() },
                        quit: { [weak self] in self?.quit() }))
                if let scanning = self.scanning { self.trayIcon?.setMonitoring(scanning) }
                if let nearby = self.nearby { self.trayIcon?.setNearbyCount(nearby) }
            }
        }
        environment.connection?.onReachabilityChange = { [weak self] in self?.windows.renderStatus() }
        environment.outbox?.onStateChange = { [weak self] in self?.windows.renderStatus() }
        environment.appKeyStatus?.onChange = { [weak self] in self?.windows.renderStatus() }
        if environment.settings.string(SettingsKey.startAtLogin) == "true", !autostart.isEnabled {
            actions?.setAutostart(setAutostart(true))
        }
        followSettings()
        monitoring.start()
        followSleep()
        launchWork.armFallback()
    }

    /// Sleep and resume (docs/monitoring.md): before a sleep, visits end and the store is written out, then the
    /// delay lock goes; after it, scanning starts anew and the catalog syncs if due.
    private func followSleep() {
        guard environment.followsSleep else { return }
        let watch = SleepWatch { DebugLog.write("sleep", $0) }
        watch.onPrepareForSleep = { [weak self] sleeping in
            guard let self else { return }
            if sleeping {
                self.monitoring.prepareForSleep()
                self.environment.beforeSleep?()
            } else {
                self.monitoring.resumedFromSleep()
                self.environment.afterResume?()
            }
        }
        watch.start()
        sleepWatch = watch
    }

    private func activate() {
        if startHidden {
            startHidden = false
            launchWork.run()
            return
        }
        showBeacons()
        launchWork.runAfterFirstFrame(of: windows.window?.window)
    }

    private var deviceID: String { environment.deviceID }

    private func quit() { g_application_quit(cast(app)) }

    /// Everything monitoring reports, in one place.
    private func update(_ update: MonitoringUpdate) {
        switch update {
        case .monitoring(_, let scanning, let staysInBackground):
            if staysInBackground != held {
                if staysInBackground { g_application_hold(cast(app)) } else { g_application_release(cast(app)) }
                held = staysInBackground
            }
            actions?.setMonitoring(scanning)
            trayIcon?.setMonitoring(scanning)
            self.scanning = scanning
            if !scanning, showsQuietScanner {
                // A stopped scanner is not a quiet one.
                windows.window?.setStatus(nil)
                showsQuietScanner = false
            }
        case .nearby(let catalogued):
            trayIcon?.setNearbyCount(catalogued)
            nearby = catalogued
        case .notify(let notification):
            notifier?.show(notification)
        case .scanner(let state):
            // The status line names a scanner that hears nothing, and is cleared when it hears again.
            let text = state.statusText(I18n.localizer)
            if text != nil || showsQuietScanner { windows.window?.setStatus(text) }
            showsQuietScanner = text != nil
        }
    }

    private func makeNotifier() -> ZoneNotifier {
        let notifier = ZoneNotifier(appID: environment.appID)
        notifier.onOpenList = { [weak self] in
            self?.monitoring.notificationClosed()
            self?.showBeacons()
        }
        notifier.onOpenSite = { [weak self] place in
            self?.monitoring.notificationClosed()
            self?.openPlace(place)
        }
        notifier.onMutePlace = { [weak self] place in self?.mute(place) }
        notifier.onClosed = { [weak self] in self?.monitoring.notificationClosed() }
        notifier.onUnavailable = { [weak self] _ in
            guard let self else { return }
            let names = self.monitoring.notifiedPlaces.map(\.cliente).joined(separator: ", ")
            self.windows.window?.setStatus(I18n.localizer.format("Nearby: %@", names))
        }
        return notifier
    }

    // MARK: the window

    private func showBeacons() {
        let opening = windows.window == nil
        windows.showBeacons()
        // A window opened while the scanner hears nothing says so from the start.
        if opening, let text = monitoring.scannerState.statusText(I18n.localizer) {
            windows.window?.setStatus(text)
        }
    }

    private func openPlace(_ place: CatalogPlace) { windows.open(place) }

    /// "Silenciar este lugar" on a notification: the place is muted, and the next entry starts a new notification.
    private func mute(_ place: CatalogPlace) {
        monitoring.notificationClosed()
        guard let muted = monitoring.mutedPlaces else { return }
        do throws(ProfileStoreError) {
            try muted.mute(place)
        } catch {
            windows.window?.setStatus(
                I18n.tr("The place was not muted: ") + error.problem.message(I18n.localizer))
        }
    }

    /// The first time the window closes while monitoring goes on, say that Faro keeps watching (once, ever).
    private func windowClosing() {
        guard monitoring.shouldExplainBackground() else { return }
        notifier?.announce(
            title: I18n.tr("Faro keeps looking for places"),
            body: I18n.tr(
                "Background monitoring goes on with the window closed. Turn it off from the menu or the tray."))
    }

    /// "Iniciar al entrar": the `start-at-login` setting is the preference, the XDG autostart entry what the
    /// session reads; both are kept in line, whichever changed.
    private func setAutostart(_ wanted: Bool) -> Bool {
        if wanted != autostart.isEnabled {
            do {
                try autostart.set(wanted)
            } catch {
                // Worded from the value; FileManager's own (English) description is never shown.
                let problem = (error as? FileWriteError)?.problem ?? .other
                windows.window?.setStatus(
                    I18n.tr("Could not change starting at login: ") + problem.message(I18n.localizer))
            }
        }
        let enabled = autostart.isEnabled
        if (environment.settings.string(SettingsKey.startAtLogin) == "true") != enabled {
            environment.settings.setString(SettingsKey.startAtLogin, enabled ? "true" : nil)
        }
        return enabled
    }

    /// Follows `start-at-login` when it is changed from outside (`gsettings set io.github.faro.Faro start-at-login
    /// true`); the monitoring service follows `monitoring` itself.
    private func followSettings() {
        settingsObservation = environment.settings.observe { [weak self] key in
            MainActor.assumeIsolated {
                guard let self, key == SettingsKey.startAtLogin.rawValue else { return }
                let wanted = self.environment.settings.string(SettingsKey.startAtLogin) == "true"
                self.actions?.setAutostart(self.setAutostart(wanted))
            }
        }
    }

    // MARK: forms

    private func showContactForm() {
        ProfileForms.contactDetails(parent: windows.window?.window, save: environment.useCases.saveContactDetails)
    }

    private func showRegisterForm() {
        ProfileForms.registerBusiness(
            parent: windows.window?.window, register: environment.useCases.registerBusiness
        ) { [weak self] in
            self?.windows.window?.setStatus(
                I18n.tr("Registration saved; it is sent as soon as the server is reachable."))
        }
    }
}
