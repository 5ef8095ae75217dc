import FaroApp
import FaroCore
import Foundation
import Testing

/// What the visit recorder was told, in order.
@MainActor
final class RecordingVisits: VisitRecorder {
    enum Call: Equatable {
        case entered(String, Double)
        case left(String, Double)
        case leftAll(Double)
    }
    private(set) var calls: [Call] = []

    func entered(regionID: String, place: CatalogPlace, at time: Double) { calls.append(.entered(regionID, time)) }
    func ranged(regionID: String, distance: Double) {}
    func left(regionID: String, at time: Double) { calls.append(.left(regionID, time)) }
    func leftAll(at time: Double) { calls.append(.leftAll(time)) }

    var entries: [Double] { calls.compactMap { if case .entered(_, let t) = $0 { t } else { nil } } }

    /// When each region's visit ended, as a store applies the calls in order: `left` ends that region's open
    /// visit, `leftAll` every open one (nil: still open or never entered).
    func ending(of regionID: String) -> Double? {
        var open = false
        var end: Double?
        for call in calls {
            switch call {
            case .entered(let r, _) where r == regionID:
                open = true
                end = nil
            case .left(regionID, let t) where open, .leftAll(let t) where open:
                open = false
                end = t
            default: break
            }
        }
        return end
    }
}

/// Sleep and resume as logind reports them, on a wall clock that jumps as a suspend makes it jump (the machine's
/// monotonic clock does not): each visit ends at its place's last reading before the sleep, the resume raises
/// nothing by itself, and scanning starts anew (docs/monitoring.md). And a wall clock stepped while a visit is open
/// neither stretches nor shortens it (docs/visits.md).
@MainActor
@Suite("Sleep and resume")
struct SleepTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
    let source = ScriptedSource()
    let settings = MemorySettings()
    let places = TablePlaces()
    let wall = ManualWallClock(1_800_000_000)
    /// The machine's monotonic clock: it runs with the wall clock (`pass`) but does not follow its steps.
    let machine = ManualWallClock(1000)
    let visits = RecordingVisits()
    let box = UpdateBox()
    let service: MonitoringService

    @MainActor
    final class UpdateBox {
        var updates: [MonitoringUpdate] = []
        var notifications: [ZoneNotification] {
            updates.compactMap { if case .notify(let n) = $0 { n } else { nil } }
        }
    }

    init() {
        let source = source
        let wall = wall
        let machine = machine
        var environment = MonitoringEnvironment(
            makeSource: { source }, settings: settings, places: places, scheduler: ManualScheduler(),
            hop: { body in Task { @MainActor in body() } }, machineClock: { machine.now() }, wallClock: { wall.now() },
            timeZone: TimeZone(identifier: "UTC") ?? .current, localize: .english, autoTick: false)
        environment.visits = visits
        service = MonitoringService(environment: environment)
        let box = box
        service.onUpdate = { box.updates.append($0) }
        places.places = [place(1, "Café"), place(2, "Librería")]
    }

    func place(_ minor: UInt16, _ name: String) -> CatalogPlace {
        CatalogPlace(
            identity: BeaconIdentity(uuid: uuid, major: 7, minor: minor), cliente: name, titulo: "Sitio \(minor)",
            url: "https://example.com/\(minor)")
    }

    /// `seconds` pass, on both clocks.
    func pass(_ seconds: Double) {
        wall.advance(by: seconds)
        machine.advance(by: seconds)
    }

    /// A sighting stamped with the source's (monotonic) time.
    func sight(_ minor: UInt16, at time: Double) {
        source.emit(
            .sighting(
                BeaconSighting(
                    beacon: IBeacon(uuid: uuid, major: 7, minor: minor, measuredPower: -59),
                    address: BluetoothAddress(value: UInt64(minor)), rssi: -60, time: time)))
    }

    func eventually(_ what: String, _ condition: () -> Bool) async {
        for _ in 0..<500 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(condition(), "\(what)")
    }

    @Test func aVisitOpenAtTheSleepEndsAtTheLastSightingAndTheResumeAnnouncesNothing() async {
        service.start()
        let start = wall.now()
        sight(1, at: 10)
        await eventually("the entry") { visits.entries.count == 1 && box.notifications.count == 1 }
        pass(20)
        sight(1, at: 30)
        let lastSighting = wall.now()
        pass(15)  // the lid closes 15 s after the last sighting
        service.prepareForSleep()
        let left = visits.ending(of: region(1))
        #expect(left == lastSighting, "\(visits.calls)")
        #expect(!source.isRunning)
        #expect(service.asleep)

        wall.advance(by: 8 * 3600)  // asleep: the wall clock jumps, the sightings' clock does not
        let notificationsBefore = box.notifications.count
        service.resumedFromSleep()
        #expect(source.isRunning && source.starts == 2)
        #expect(!service.asleep)
        try? await Task.sleep(for: .milliseconds(100))
        #expect(box.notifications.count == notificationsBefore, "the resume alone announced nothing")
        #expect(visits.entries == [start], "no entry without a sighting after the resume")

        // Heard again after the resume: a new visit from now, not announced again inside the cool-down.
        sight(1, at: 40)
        await eventually("the new visit") { visits.entries.count == 2 }
        #expect(visits.entries.last == wall.now())
        // Another place heard after the resume is announced.
        sight(2, at: 41)
        await eventually("the other place's entry") { box.notifications.count == notificationsBefore + 1 }
        #expect(box.notifications.last?.places.first?.cliente == "Librería")
        // No visit spans the sleep: the first ended before it, the second began after it.
        #expect(left.map { $0 - start } == 20)
    }

    func region(_ minor: UInt16) -> String {
        CatalogIndex.region(BeaconIdentity(uuid: uuid, major: 7, minor: minor)).identifier
    }

    @Test func eachVisitOpenAtTheSleepEndsAtItsOwnPlacesLastReading() async {
        service.start()
        // The café is heard for 10 s, then only the bookshop, for 25 s more (inside the 30 s exit period, so the
        // café's visit is still open), and the lid closes 5 s after the bookshop's last reading.
        sight(1, at: 10)
        sight(2, at: 10)
        await eventually("both entries") { visits.entries.count == 2 }
        pass(10)
        sight(1, at: 20)
        let cafeLast = wall.now()
        for second in 1...25 {
            pass(1)
            sight(2, at: 20 + Double(second))
        }
        let bookshopLast = wall.now()
        pass(5)
        service.prepareForSleep()
        #expect(visits.ending(of: region(1)) == cafeLast, "\(visits.calls)")
        #expect(visits.ending(of: region(2)) == bookshopLast, "\(visits.calls)")
        #expect(!source.isRunning)
    }

    @Test func aClockSteppedForwardBeforeTheSleepEndsTheVisitAtItsLastReading() async {
        service.start()
        sight(1, at: 10)
        await eventually("the entry") { visits.entries.count == 1 }
        pass(3)
        sight(1, at: 13)
        let last = wall.now()
        wall.advance(by: 8 * 3600)  // the wall clock is stepped forward; no reading since
        service.prepareForSleep()
        #expect(visits.ending(of: region(1)) == last)
    }

    @Test func aClockSteppedForwardWhileAVisitIsOpenDoesNotStretchIt() async {
        service.start()
        let start = wall.now()
        sight(1, at: 10)
        await eventually("the entry") { visits.entries == [start] }
        pass(20)
        sight(1, at: 30)
        wall.advance(by: 8 * 3600)  // corrected by eight hours while the user is still there
        pass(20)
        sight(1, at: 50)
        pass(20)
        sight(1, at: 70)
        try? await Task.sleep(for: .milliseconds(100))
        service.apply(.off)
        #expect(visits.ending(of: region(1)) == start + 60, "\(visits.calls)")
        #expect(box.notifications.count == 1, "the step announced nothing again")
    }

    @Test func aClockSteppedBackWhileAVisitIsOpenNeverMakesItNegative() async {
        service.start()
        let start = wall.now()
        sight(1, at: 10)
        await eventually("the entry") { visits.entries == [start] }
        pass(30)
        sight(1, at: 40)
        wall.advance(by: -2 * 3600)
        pass(15)
        service.prepareForSleep()
        #expect(visits.ending(of: region(1)) == start + 30, "\(visits.calls)")
    }

    @Test func sightingsBetweenTheSleepAndTheResumeAreIgnored() async {
        service.start()
        service.prepareForSleep()
        sight(1, at: 10)  // a late signal from the stopped source
        try? await Task.sleep(for: .milliseconds(100))
        #expect(visits.entries.isEmpty)
        #expect(box.notifications.isEmpty)
        service.resumedFromSleep()
        sight(1, at: 11)
        await eventually("the entry after the resume") { visits.entries.count == 1 }
    }

    @Test func aSleepWithNothingHeardClosesVisitsNoLaterThanNow() {
        service.start()
        pass(5)
        service.prepareForSleep()
        #expect(visits.calls.last == .leftAll(wall.now()))
    }

    @Test func monitoringOffStaysOffAcrossASleepAndAPauseThatEndedAsleepEndsAtTheResume() {
        settings.values[SettingsKey.monitoring.rawValue] = "off"
        service.start()
        service.prepareForSleep()
        service.resumedFromSleep()
        #expect(source.starts == 0)

        service.apply(.pausedForAnHour(from: wall.now()))
        service.prepareForSleep()
        wall.advance(by: 2 * 3600)
        service.resumedFromSleep()
        #expect(source.isRunning)
        #expect(service.plan.preference == .on)
    }

    @Test func aScannerThatHearsNothingIsNamedOnTheStatusLine() {
        service.start()
        source.emit(.state(.quiet(adapter: "hci0", minutes: 3)))
        #expect(service.scannerState == .quiet(minutes: 3))
        guard case .scanner(let state)? = box.updates.last else {
            Issue.record("no scanner update: \(box.updates)")
            return
        }
        #expect(state.statusText(.english) == "Bluetooth has received nothing for 3 min")
        source.emit(.state(.resumed(adapter: "hci0")))
        #expect(service.scannerState.statusText(.english) == nil)
    }
}
