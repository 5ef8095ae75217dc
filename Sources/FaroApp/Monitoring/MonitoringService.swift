import FaroCore
import FoundationEssentials

/// What the monitoring service needs from the outside: the scanner, persisted settings, the catalog, timers and
/// clocks, and how to get back to the main thread. The GUI passes the real ones; tests pass their own.
public struct MonitoringEnvironment {
    public var makeSource: @MainActor () -> any AdvertisementSource
    public var settings: any SettingsStore
    public var places: any PlaceDirectory
    public var scheduler: any MainScheduler
    /// From the session's thread to the main thread (GTK: an idle callback).
    public var hop: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Monotonic seconds of this machine.
    public var machineClock: @Sendable () -> Double
    /// Seconds since 1970 (pauses end at wall-clock times).
    public var wallClock: @Sendable () -> Double
    public var timeZone: TimeZone
    public var localize: Localizer
    public var session: BeaconSessionConfiguration
    /// Whether the session ticks by itself once a second (tests tick by hand).
    public var autoTick: Bool
    /// Calibrations and adapter offsets (nil: distances use advertised powers).
    public var calibrations: (any CalibrationStore)?
    /// Where visits to catalogued places are recorded (nil: not recorded).
    public var visits: (any VisitRecorder)?
    /// The places the user muted: they raise no notification (nil: none is muted).
    public var mutedPlaces: MutedPlaces?
    /// Whether a place's URL has a page in Guardados, for `notify-places` = `saved` (nil: none has).
    public var hasSavedPage: (@MainActor (String) -> Bool)?
    /// The name a source's adapter offset is kept under: its Bluetooth address when it has one, `replay` for
    /// recordings and the demo.
    public var adapterName: @MainActor (any AdvertisementSource) -> String = { _ in "replay" }
    /// Where the session's beacon lists go (the window observes it). By default it hops with `hop`; the window
    /// gives one that hops straight through the GTK main loop.
    public var listFeed: BeaconListFeed
    /// Gives the system back the memory the process holds free (the window's `malloc_trim`), called on the
    /// session's thread once a crowd has left the list.
    public var releaseFreeMemory: @Sendable () -> Void = {}

    public init(
        makeSource: @escaping @MainActor () -> any AdvertisementSource, settings: any SettingsStore,
        places: any PlaceDirectory, scheduler: any MainScheduler,
        hop: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        machineClock: @escaping @Sendable () -> Double, wallClock: @escaping @Sendable () -> Double,
        timeZone: TimeZone = .current, localize: Localizer,
        session: BeaconSessionConfiguration = BeaconSessionConfiguration(), autoTick: Bool = true
    ) {
        self.makeSource = makeSource
        self.settings = settings
        self.places = places
        self.scheduler = scheduler
        self.hop = hop
        self.machineClock = machineClock
        self.wallClock = wallClock
        self.timeZone = timeZone
        self.localize = localize
        self.session = session
        self.autoTick = autoTick
        listFeed = BeaconListFeed(hop: { body in hop { MainActor.assumeIsolated { body() } } })
    }
}

/// What the monitoring service tells the window and the tray, in one typed stream.
public enum MonitoringUpdate: Sendable {
    /// Monitoring was switched on, off or to a pause; `scanning` says whether the scanner runs now, and
    /// `staysInBackground` whether Faro keeps running with its window closed.
    case monitoring(MonitoringPreference, scanning: Bool, staysInBackground: Bool)
    /// How many catalogued places are in range (the tray's label).
    case nearby(catalogued: Int)
    /// A zone-entry notification to show, or to update in place.
    case notify(ZoneNotification)
    /// What the scanner is doing changed (the status line says when it hears nothing).
    case scanner(ScannerState)
}

/// Background monitoring, without any display: it starts and stops the scanner as the user's preference says
/// (on, off, paused for an hour or until tomorrow, persisted, and around the machine's sleep), feeds every
/// sighting through the beacon session on its own thread, turns the catalog into regions, and plans the zone-entry
/// notifications. The GTK layer only carries out its `MonitoringUpdate`s and forwards the user's intents; the
/// beacon list does not pass through here (the session publishes it to `MonitoringEnvironment.listFeed`).
@MainActor
public final class MonitoringService {
    public private(set) var plan: MonitoringPlan
    public private(set) var scannerState = ScannerState.scanning
    /// Called for every update, on the main thread.
    public var onUpdate: (@MainActor (MonitoringUpdate) -> Void)?
    /// Called with every sighting, on the main thread, while set (the calibration dialog collects readings).
    public var sightingTap: (@MainActor (BeaconSighting) -> Void)?

    private let environment: MonitoringEnvironment
    private var source: (any AdvertisementSource)?
    private var runner: BeaconSessionRunner<BeaconListStage>?
    private var planner: ZoneNotificationPlanner
    private var resumeToken: UInt32?
    private var listWanted = false
    /// What the window's search bar holds (docs/beacons.md, "Search").
    private var listQuery = SearchQuery.everything
    /// The visits this run opened and has not ended, by region: the wall-clock time the entry was stamped with
    /// and the machine's monotonic time then. A visit ends at its entry plus the monotonic time since
    /// (docs/visits.md), so a wall clock stepped while it is open neither stretches it by hours nor makes it
    /// negative, and time asleep (which the monotonic clock does not count) never lengthens it.
    private var openVisits: [String: (wall: Double, machine: Double)] = [:]
    /// Monotonic time of the last sighting (a visit open at a sleep whose place has no reading of its own ends
    /// there).
    private var lastSightingAt: Double?
    /// Monotonic time each catalogued place was last heard, by region (a visit open at a sleep ends at its own
    /// place's last reading). Only catalogued places, forgotten at their exit and when scanning stops.
    private var lastHeard: [String: Double] = [:]
    /// Between `prepareForSleep` and `resumedFromSleep`.
    public private(set) var asleep = false
    /// Follows changes made from outside while Faro runs (`gsettings set io.github.faro.Faro monitoring false`).
    private var settingsObservation: SettingsObservation?

    public init(environment: MonitoringEnvironment) {
        self.environment = environment
        plan = MonitoringPlan(.on, at: environment.wallClock())
        planner = ZoneNotificationPlanner(localize: environment.localize)
    }

    /// Starts with the stored preference (on at first launch).
    public func start() {
        environment.places.onChange = { [weak self] in self?.placesChanged() }
        settingsObservation = environment.settings.observe { [weak self] key in
            MainActor.assumeIsolated { self?.settingChanged(key) }
        }
        let stored = MonitoringPreference(storedValue: environment.settings.string(SettingsKey.monitoring))
        apply(stored)
    }

    /// A setting changed, here or in another process: monitoring follows its key.
    private func settingChanged(_ key: String) {
        guard key == SettingsKey.monitoring.rawValue else { return }
        let wanted = MonitoringPreference(storedValue: environment.settings.string(SettingsKey.monitoring))
            .normalized(at: environment.wallClock())
        if wanted != plan.preference { apply(wanted) }
    }

    /// Stops the scanner and the session's thread (the application is quitting).
    public func stop() {
        settingsObservation?.cancel()
        stopScanning()
        runner?.stop()
        runner = nil
    }

    /// The adapter in use, as calibration offsets name it.
    public var adapter: String { source.map { environment.adapterName($0) } ?? "replay" }

    /// The calibrations store, for the window's dialogs.
    public var calibrations: (any CalibrationStore)? { environment.calibrations }

    /// Reads the calibrations and the adapter's offset again (after a calibration or a reset) and ranges with
    /// them from the next tick on.
    public func reloadCalibration() {
        guard let store = environment.calibrations else { return }
        session().setCalibration(store.powerCalibration(adapter: adapter))
    }

    /// What the session knows of a beacon now (its page); `reply` comes on the main thread.
    public func details(of identity: BeaconIdentity, reply: @escaping @MainActor (BeaconDetails) -> Void) {
        session().details(of: identity) { details in MainActor.assumeIsolated { reply(details) } }
    }

    /// The catalogued place of a beacon, if the catalog knows it.
    public func place(for identity: BeaconIdentity) -> CatalogPlace? { environment.places.index.place(for: identity) }

    /// The places on the zone notification now (for a status line when no notification server exists).
    public var notifiedPlaces: [CatalogPlace] { planner.places }

    /// Whether entering `place` may raise a notification now: not when it is muted, and only as `notify-places`
    /// says (read at each entry, so a change from Preferences or `gsettings` applies to the next one).
    public func mayNotify(_ place: CatalogPlace) -> Bool {
        let setting = NotifyPlaces(storedValue: environment.settings.string(SettingsKey.notifyPlaces))
        return PlaceNotificationRule.mayNotify(
            setting: setting, muted: environment.mutedPlaces?.isMuted(place) ?? false,
            hasSavedPage: setting == .saved && (environment.hasSavedPage?(place.url) ?? false))
    }

    /// The places the user muted (nil when the profile keeps none).
    public var mutedPlaces: MutedPlaces? { environment.mutedPlaces }

    /// `place` was muted: the notification on screen stops naming it (a later entry elsewhere updates it without).
    public func placeMuted(_ place: CatalogPlace) { planner.forget(place) }

    // MARK: intents

    /// Switches monitoring on, off or to a pause: persists it, starts or stops the scanner, and says so.
    public func apply(_ preference: MonitoringPreference) {
        let now = environment.wallClock()
        plan = MonitoringPlan(preference, at: now)
        environment.settings.setString(SettingsKey.monitoring, plan.preference.storedValue)
        if plan.scanning {
            if source == nil, !asleep { startScanning() }
            if scannerState == .paused { scannerState = .scanning }
        } else {
            stopScanning()
            scannerState = .paused
        }
        if let token = resumeToken {
            environment.scheduler.cancel(token)
            resumeToken = nil
        }
        if let seconds = plan.resumesIn {
            resumeToken = environment.scheduler.after(seconds: seconds) { [weak self] in
                self?.resumeToken = nil
                self?.apply(.on)
            }
        }
        onUpdate?(.monitoring(plan.preference, scanning: plan.scanning, staysInBackground: plan.staysInBackground))
        sessionInputsChanged()
    }

    public func pauseForAnHour() { apply(.pausedForAnHour(from: environment.wallClock())) }

    public func pauseUntilTomorrow() {
        apply(.pausedUntilTomorrow(from: environment.wallClock(), timeZone: environment.timeZone))
    }

    /// The window opened (rows wanted, ticking goes on) or closed (only counts and notifications).
    public func setListWanted(_ wanted: Bool) {
        listWanted = wanted
        sessionInputsChanged()
    }

    /// The beacon list shows only the beacons whose names or identity contain `query` (docs/beacons.md,
    /// "Search"): the session's thread lists the last tick again with it at once, and every tick after it.
    public func setListQuery(_ query: SearchQuery) {
        guard query != listQuery else { return }
        listQuery = query
        sessionInputsChanged()
    }

    /// Ticks the session now (with `autoTick` off: tests drive the clock).
    public func tick() { runner?.tickNow() }

    /// The user clicked or dismissed the zone notification, or the server closed it: the next entry starts a new
    /// one.
    public func notificationClosed() { planner.closed() }

    /// The window closed while monitoring goes on: whether to say, once ever, that Faro keeps watching.
    public func shouldExplainBackground() -> Bool {
        guard plan.staysInBackground, environment.settings.string(SettingsKey.toldAboutBackground) == nil else {
            return false
        }
        environment.settings.setString(SettingsKey.toldAboutBackground, "yes")
        return true
    }

    // MARK: scanning

    private func session() -> BeaconSessionRunner<BeaconListStage> {
        if let runner { return runner }
        let made = BeaconSessionRunner(
            session: BeaconSession(configuration: environment.session),
            stage: BeaconListStage(
                localize: environment.localize, releaseFreeMemory: environment.releaseFreeMemory,
                publish: { [feed = environment.listFeed] in feed.publish($0) }),
            inputs: inputs,
            machineClock: environment.machineClock, autoTick: environment.autoTick, hop: environment.hop
        ) { [weak self] outputs in
            MainActor.assumeIsolated { self?.received(outputs) }
        }
        made.setCatalog(environment.places.index)
        if let store = environment.calibrations { made.setCalibration(store.powerCalibration(adapter: adapter)) }
        runner = made
        return made
    }

    private var inputs: BeaconListInputs {
        BeaconListInputs(state: scannerState, listWanted: listWanted, query: listQuery)
    }

    private func sessionInputsChanged() {
        let runner = session()
        runner.setInputs(inputs)
        runner.setTicking(listWanted && plan.scanning)
    }

    private func startScanning() {
        let source = environment.makeSource()
        self.source = source
        do {
            try source.start { [weak self] event in MainActor.assumeIsolated { self?.handle(event) } }
        } catch {
            scannerState = .unavailable(ScannerProblem(error))
        }
    }

    /// `leavingAt`: when each open visit ends, on the monotonic clock, by region (now, unless the machine is about
    /// to sleep).
    private func stopScanning(leavingAt: ((String) -> Double)? = nil) {
        // Kept alive until it has stopped: the BlueZ source's StopDiscovery answers later.
        let stopping = source
        stopping?.stop { _ = stopping }
        source = nil
        // Nothing is known to be in range any more: the next sighting after a resume is an entry again
        // (announced only outside the cool-down), and the next source's clock starts afresh.
        runner?.reset()
        let now = environment.machineClock()
        for regionID in openVisits.keys { endVisit(regionID, at: leavingAt?(regionID) ?? now) }
        // Visits this run did not open (left open by an earlier run) end now.
        environment.visits?.leftAll(at: environment.wallClock())
        lastSightingAt = nil
        lastHeard.removeAll()
        onUpdate?(.nearby(catalogued: 0))
    }

    // MARK: sleep (docs/monitoring.md, "Sleep and resume")

    /// The machine is about to sleep: scanning stops, and every open visit ends at its own place's last reading
    /// before the sleep, so no visit includes time asleep, nor the time its place was already out of earshot.
    /// Nothing is announced or exited for it.
    public func prepareForSleep() {
        guard !asleep else { return }
        asleep = true
        guard source != nil else { return }
        let now = environment.machineClock()
        // A visit whose place has no reading of its own (entered from a catalog change) ends at the last sighting.
        let lastOfAll = min(now, lastSightingAt ?? now)
        stopScanning { [lastHeard] regionID in min(now, lastHeard[regionID] ?? lastOfAll) }
    }

    /// Ends the visit of `regionID` this run opened at monotonic time `machine`: its entry plus the time since.
    private func endVisit(_ regionID: String, at machine: Double) {
        guard let open = openVisits.removeValue(forKey: regionID) else { return }
        environment.visits?.left(regionID: regionID, at: open.wall + max(0, machine - open.machine))
    }

    /// The machine woke up: scanning starts again (a new discovery) if monitoring is on, a pause that ended during
    /// the sleep ends now, and every place counts as not yet seen: a place is entered again only when its beacon
    /// is heard, and announced only outside its cool-down.
    public func resumedFromSleep() {
        guard asleep else { return }
        asleep = false
        let wanted = MonitoringPreference(storedValue: environment.settings.string(SettingsKey.monitoring))
            .normalized(at: environment.wallClock())
        apply(wanted)
    }

    private func handle(_ event: SourceEvent) {
        switch event {
        case .sighting(let sighting):
            guard plan.scanning, !asleep else { return }
            let now = environment.machineClock()
            lastSightingAt = now
            session().observe(sighting)
            sightingTap?(sighting)
            let identity = sighting.beacon.identity
            if environment.places.index.contains(identity) {
                lastHeard[CatalogIndex.region(identity).identifier] = now
            } else {
                environment.places.sighted(unknown: identity)
            }
        case .state(let state):
            scannerState = MonitoringService.scannerState(state)
            // The adapter in use may have changed: its offset applies.
            if case .scanning = state { reloadCalibration() }
            sessionInputsChanged()
            onUpdate?(.scanner(scannerState))
        case .failed(let error):
            scannerState = .unavailable(ScannerProblem(error))
            sessionInputsChanged()
            onUpdate?(.scanner(scannerState))
        }
    }

    private func placesChanged() {
        session().setCatalog(environment.places.index)
    }

    private func received(_ outputs: [BeaconListOutput]) {
        for output in outputs {
            switch output {
            case .region(let event):
                if event.kind == .exit {
                    endVisit(event.region.identifier, at: environment.machineClock())
                    lastHeard[event.region.identifier] = nil
                }
                guard event.kind == .enter, let beacon = event.beacon else { continue }
                let place = environment.places.index.place(for: beacon)
                if let place {
                    let now = environment.wallClock()
                    environment.visits?.entered(regionID: event.region.identifier, place: place, at: now)
                    openVisits[event.region.identifier] = (now, environment.machineClock())
                }
                // A muted place, or one `notify-places` leaves out, is listed and visited but not announced, and its
                // cool-down does not start: the next entry after un-muting is notified (docs/notifications.md).
                let announced = place.flatMap { mayNotify($0) ? $0 : nil }
                if event.announce, place != nil, announced == nil {
                    session().withdrawAnnouncement(of: event.region.identifier, at: event.time)
                }
                if let note = planner.entered(event, place: announced, monitoringActive: plan.scanning) {
                    onUpdate?(.notify(note))
                }
            case .ranged(let result):
                if let visits = environment.visits {
                    for (identity, distance) in result.cataloguedDistances {
                        visits.ranged(regionID: CatalogIndex.region(identity).identifier, distance: distance)
                    }
                }
                onUpdate?(.nearby(catalogued: result.catalogued))
            }
        }
    }

    /// The list's words for what a source reports.
    public static func scannerState(_ state: SourceState) -> ScannerState {
        switch state {
        case .scanning, .resumed, .finished: return .scanning
        case .poweredOff: return .bluetoothOff
        case .adapterMissing: return .noAdapter
        case .quiet(_, let minutes): return .quiet(minutes: minutes)
        case .waitingForService, .serviceGone: return .unavailable(.serviceMissing)
        case .accessDenied: return .unavailable(.accessDenied)
        }
    }
}
