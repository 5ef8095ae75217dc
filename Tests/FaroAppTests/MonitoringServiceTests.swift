import FaroApp
import FaroCore
import Foundation
import Testing

/// A source the test plays: it records start/stop and lets the test emit events.
final class ScriptedSource: AdvertisementSource {
    let name = "scripted"
    private(set) var starts = 0
    private(set) var stops = 0
    private var handler: ((SourceEvent) -> Void)?

    var isRunning: Bool { handler != nil }

    func start(_ handler: @escaping (SourceEvent) -> Void) throws(ScanError) {
        starts += 1
        self.handler = handler
    }

    func stop(_ done: @escaping () -> Void) {
        stops += 1
        handler = nil
        done()
    }

    func emit(_ event: SourceEvent) { handler?(event) }
}

final class MemorySettings: SettingsStore {
    var values: [String: String] = [:]
    private var observers: [Int: (String) -> Void] = [:]
    private var nextObserver = 0

    func string(_ key: String) -> String? { values[key] }
    func setString(_ key: String, _ value: String?) { values[key] = value }

    func observe(_ changed: @escaping (String) -> Void) -> SettingsObservation {
        nextObserver += 1
        let id = nextObserver
        observers[id] = changed
        return SettingsObservation { [weak self] in self?.observers[id] = nil }
    }

    /// Another process changed a setting (`gsettings set …`): the value changes and observers hear of it.
    func changeFromOutside(_ key: String, _ value: String?) {
        values[key] = value
        for observer in observers.values { observer(key) }
    }
}

@MainActor
final class ManualScheduler: MainScheduler {
    var timers: [UInt32: (seconds: Double, body: @MainActor () -> Void)] = [:]
    private var next: UInt32 = 1

    func after(seconds: Double, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        defer { next += 1 }
        timers[next] = (seconds, body)
        return next
    }

    func cancel(_ token: UInt32) { timers[token] = nil }

    /// Fires every pending timer (their time has come).
    func fireAll() {
        let due = timers
        timers = [:]
        for (_, timer) in due.sorted(by: { $0.key < $1.key }) { timer.body() }
    }
}

@MainActor
final class TablePlaces: PlaceDirectory {
    var index = CatalogIndex()
    /// The catalog's places (setting them is a catalog loaded before monitoring starts).
    var places: [CatalogPlace] {
        get { index.places }
        set { index = CatalogIndex(newValue) }
    }
    var onChange: (@MainActor () -> Void)?
    private(set) var asked: [BeaconIdentity] = []

    func sighted(unknown identity: BeaconIdentity) { asked.append(identity) }

    func learn(_ place: CatalogPlace) {
        places.append(place)
        onChange?()
    }
}

/// A wall clock the test moves by hand.
final class ManualWallClock: @unchecked Sendable {
    private let lock = ConditionLock()
    private var time: Double
    init(_ time: Double) { self.time = time }
    func now() -> Double { lock.withLock { time } }
    func advance(by seconds: Double) { lock.withLock { time += seconds } }
}

/// One monitoring service with its scripted peers, as each test gets it.
@MainActor
final class MonitoringHarness {
    let source = ScriptedSource()
    let settings = MemorySettings()
    let scheduler = ManualScheduler()
    let places = TablePlaces()
    let wall = ManualWallClock(1_800_000_000)
    var updates: [MonitoringUpdate] = []
    /// The lists the session published to the window's feed.
    var lists: [BeaconListUpdate] = []
    /// The muted places' store, the URLs with a page in Guardados and the visits recorded.
    let mutedStore = MemoryMutedPlaceStore()
    var savedURLs: Set<String> = []
    let visits = VisitLog()
    private(set) var service: MonitoringService!

    init() {
        let source = source
        let wall = wall
        var environment = MonitoringEnvironment(
            makeSource: { source }, settings: settings, places: places, scheduler: scheduler,
            hop: { body in Task { @MainActor in body() } }, machineClock: { 0 }, wallClock: { wall.now() },
            timeZone: TimeZone(identifier: "UTC") ?? .current, localize: .english, autoTick: false)
        environment.listFeed.observer = { [weak self] in self?.lists.append($0) }
        environment.mutedPlaces = MutedPlaces(store: mutedStore, clock: { wall.now() })
        environment.hasSavedPage = { [weak self] url in self?.savedURLs.contains(url) ?? false }
        environment.visits = visits
        service = MonitoringService(environment: environment)
        service.onUpdate = { [weak self] in self?.updates.append($0) }
    }

    /// The session's thread ends with the test.
    isolated deinit { service?.stop() }
}

/// Background monitoring without a display: the preference's state machine, the scanner's lifecycle, regions
/// from the catalog and the zone notifications, driven by a scripted source, a manual scheduler and ticks by hand.
@MainActor
@Suite("Monitoring service")
struct MonitoringServiceTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
    let harness = MonitoringHarness()
    var source: ScriptedSource { harness.source }
    var settings: MemorySettings { harness.settings }
    var scheduler: ManualScheduler { harness.scheduler }
    var places: TablePlaces { harness.places }
    var service: MonitoringService { harness.service }
    var updates: [MonitoringUpdate] { harness.updates }
    var wall: Double { harness.wall.now() }

    func id(_ minor: UInt16) -> BeaconIdentity { BeaconIdentity(uuid: uuid, major: 7, minor: minor) }

    func place(_ minor: UInt16, _ name: String) -> CatalogPlace {
        CatalogPlace(identity: id(minor), cliente: name, titulo: "Sitio \(minor)", url: "https://example.com/\(minor)")
    }

    func sight(_ minor: UInt16, at time: Double) {
        source.emit(
            .sighting(
                BeaconSighting(
                    beacon: IBeacon(uuid: uuid, major: 7, minor: minor, measuredPower: -59),
                    address: BluetoothAddress(value: UInt64(minor)), rssi: -60, time: time)))
    }

    var notifications: [ZoneNotification] {
        updates.compactMap { if case .notify(let n) = $0 { n } else { nil } }
    }

    var lists: [BeaconListUpdate] { harness.lists }

    /// Lets the session's thread and the hops back run until `condition` holds (bounded; not a timing check).
    func eventually(_ what: String, _ condition: () -> Bool) async {
        for _ in 0..<500 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(condition(), "\(what)")
    }

    @Test func startsOnAtFirstLaunchAndStoresTheChoice() {
        service.start()
        #expect(source.isRunning)
        #expect(service.plan.scanning)
        guard case .monitoring(.on, true, true) = updates.first else {
            Issue.record("first update: \(String(describing: updates.first))")
            return
        }
        service.apply(.off)
        #expect(!source.isRunning)
        #expect(settings.values[SettingsKey.monitoring.rawValue] == "off")
        #expect(service.scannerState == .paused)
        guard case .monitoring(.off, false, false) = updates.last else {
            Issue.record("last update: \(String(describing: updates.last))")
            return
        }
    }

    @Test func aStoredOffIsKeptAcrossRestartsAndStartsNothing() {
        settings.values[SettingsKey.monitoring.rawValue] = "off"
        service.start()
        #expect(source.starts == 0)
        #expect(!service.plan.staysInBackground)
    }

    @Test func aPauseEndsByItselfAtItsTime() throws {
        service.start()
        service.pauseForAnHour()
        #expect(!source.isRunning)
        #expect(settings.values[SettingsKey.monitoring.rawValue] == "paused:\(Int(wall) + 3600)")
        #expect(scheduler.timers.values.map(\.seconds) == [3600])
        #expect(service.plan.staysInBackground)
        harness.wall.advance(by: 3600)
        scheduler.fireAll()
        #expect(source.isRunning)
        #expect(service.plan.preference == .on)
        #expect(settings.values[SettingsKey.monitoring.rawValue] == "on")
    }

    @Test func anExpiredPauseFoundAtStartIsOn() {
        settings.values[SettingsKey.monitoring.rawValue] = "paused:\(Int(wall) - 5)"
        service.start()
        #expect(source.isRunning)
        #expect(scheduler.timers.isEmpty)
    }

    @Test func entriesOfCataloguedPlacesMergeIntoOneNotification() async {
        places.places = [place(1, "Café"), place(2, "Librería")]
        service.start()
        sight(1, at: 10)
        await eventually("first entry notified") { notifications.count == 1 }
        sight(2, at: 11)
        sight(3, at: 11)  // not catalogued: asked about, never notified
        await eventually("second entry merged") { notifications.count == 2 }
        #expect(notifications[0].title == "You are near Café")
        #expect(notifications[1].title == "You are near 2 places")
        #expect(notifications[1].replacesShown)
        #expect(places.asked == [id(3)])
    }

    @Test func aPlaceTheCatalogLearnsWhileItsBeaconIsInRangeIsNotifiedAtTheNextSighting() async {
        service.start()
        sight(5, at: 1)
        #expect(places.asked == [id(5)])
        places.learn(place(5, "Museo"))
        sight(5, at: 2)
        await eventually("entry after the catalog learnt the place") { notifications.count == 1 }
        #expect(notifications.first?.title == "You are near Museo")
    }

    @Test func aReEntryAfterAPauseInsideTheCoolDownIsSilent() async {
        places.places = [place(1, "Café"), place(2, "Librería")]
        service.start()
        sight(1, at: 10)
        await eventually("entry notified") { notifications.count == 1 }
        service.notificationClosed()
        service.pauseForAnHour()
        service.apply(.on)
        sight(1, at: 20)
        // Another place after the resume is still announced: the regions survived the pause.
        sight(2, at: 21)
        await eventually("the other place's entry") { notifications.count == 2 }
        #expect(notifications.last?.title == "You are near Librería")
        #expect(notifications.last?.places.map(\.cliente) == ["Librería"])
    }

    @Test func theListIsBuiltOnlyWhileTheWindowWantsIt() async throws {
        places.places = [place(1, "Café")]
        service.start()
        sight(1, at: 10)
        sight(2, at: 10)
        service.tick()
        await eventually("counts for the tray") {
            updates.contains { if case .nearby(let n) = $0 { n == 1 } else { false } }
        }
        #expect(lists.isEmpty)
        service.setListWanted(true)
        await eventually("a list once the window is open") { !lists.isEmpty }
        let list = try #require(lists.last)
        #expect(Set(list.order) == [id(1), id(2)])
        #expect(list.row(id(1))?.model.title == "Sitio 1")
    }

    @Test func aChangeMadeFromOutsideIsFollowed() {
        service.start()
        settings.changeFromOutside(SettingsKey.monitoring.rawValue, "off")
        #expect(!source.isRunning)
        #expect(!service.plan.staysInBackground)
        settings.changeFromOutside(SettingsKey.toldAboutBackground.rawValue, "yes")
        #expect(!source.isRunning)
        settings.changeFromOutside(SettingsKey.monitoring.rawValue, "on")
        #expect(source.isRunning)
        #expect(source.starts == 2)
    }

    @Test func theBackgroundHintIsGivenOnceAndNeverWhenOff() {
        service.start()
        #expect(service.shouldExplainBackground())
        #expect(!service.shouldExplainBackground())
        settings.values = [:]
        service.apply(.off)
        #expect(!service.shouldExplainBackground())
    }

    @Test func sourceStatesReachTheListsWords() {
        #expect(MonitoringService.scannerState(.poweredOff(adapter: "hci0")) == .bluetoothOff)
        #expect(MonitoringService.scannerState(.adapterMissing(requested: nil)) == .noAdapter)
        #expect(MonitoringService.scannerState(.finished) == .scanning)
        #expect(MonitoringService.scannerState(.serviceGone) == .unavailable(.serviceMissing))
        #expect(MonitoringService.scannerState(.accessDenied(detail: "policy")) == .unavailable(.accessDenied))
    }

}
