import FaroApp
import FaroCore
import Testing

/// Sightings, regions and ticks through `BeaconSession` and the window's `BeaconListStage`: the path every
/// front end takes, with no display and no thread.
@Suite("Beacon session")
struct BeaconSessionTests {
    /// What a `BeaconListStage` publishes (the window's `BeaconListFeed` in the application).
    final class Published: @unchecked Sendable {
        private let lock = ConditionLock()
        private var lists: [BeaconListUpdate] = []

        func take(_ list: BeaconListUpdate) { lock.withLock { lists.append(list) } }
        var last: BeaconListUpdate? { lock.withLock { lists.last } }
        var count: Int { lock.withLock { lists.count } }
    }

    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    func id(_ minor: UInt16) -> BeaconIdentity { BeaconIdentity(uuid: uuid, major: 100, minor: minor) }

    func sighting(_ minor: UInt16, rssi: Int8, at time: Double) -> BeaconSighting {
        BeaconSighting(
            beacon: IBeacon(uuid: uuid, major: 100, minor: minor, measuredPower: -59),
            address: BluetoothAddress(value: UInt64(minor)), rssi: rssi, time: time)
    }

    func place(_ minor: UInt16, _ name: String) -> CatalogPlace {
        CatalogPlace(identity: id(minor), cliente: name, titulo: "T\(minor)", url: "https://example.com/\(minor)")
    }

    /// A session whose first sample sets the distance exactly: log-distance with exponent 2 (1 m at the measured
    /// power, 2 m at −6 dB, 10 m at −20 dB).
    func exactSession(exitPeriod: Double = 30, coolDown: Double = 600) -> BeaconSession {
        BeaconSession(
            configuration: BeaconSessionConfiguration(
                ranging: RangingConfiguration(exitPeriod: exitPeriod),
                strategy: DistanceStrategy(makeFilter: { KalmanRSSIFilter() }, model: LogDistancePathLoss(exponent: 2)),
                regions: RegionMonitorConfiguration(exitPeriod: exitPeriod, coolDown: coolDown)))
    }

    func feed(_ session: inout BeaconSession, _ sightings: [BeaconSighting]) -> [BeaconSessionUpdate] {
        var out: [BeaconSessionUpdate] = []
        for s in sightings { session.observe(s) { out.append($0) } }
        return out
    }

    func tick(_ session: inout BeaconSession, at time: Double) -> [BeaconSessionUpdate] {
        var out: [BeaconSessionUpdate] = []
        session.tick(at: time) { out.append($0) }
        return out
    }

    @Test func sightingsAreRangedIntoTheListNearestFirst() throws {
        var session = exactSession()
        session.setCatalog(CatalogIndex([place(3, "Panadería")]))
        _ = feed(
            &session,
            [sighting(1, rssi: -79, at: 0.1), sighting(2, rssi: -59, at: 0.2), sighting(3, rssi: -65, at: 0.3)])
        let published = Published()
        let stage = BeaconListStage(localize: .english, publish: { published.take($0) })
        let outputs = stage.process(
            tick(&session, at: 1), inputs: BeaconListInputs(state: .scanning, listWanted: true), refresh: false)
        guard case .ranged(let result) = try #require(outputs.last) else {
            Issue.record("no tick result")
            return
        }
        #expect(result.inRange == 3)
        #expect(result.catalogued == 1)
        #expect(published.count == 1)
        let list = try #require(published.last)
        #expect(list.order == [id(2), id(3), id(1)])
        #expect(list.model.rows.map(\.distanceText) == ["≈ 1.0 m", "≈ 2.0 m", "≈ 10 m"])
        #expect(list.model.rows[1].title == "T3")

        // Without the window only the counts are made.
        let counts = stage.process(
            [.ranged(session.current)], inputs: BeaconListInputs(state: .scanning, listWanted: false), refresh: true)
        guard case .ranged(let quiet) = try #require(counts.first) else {
            Issue.record("no counts")
            return
        }
        #expect(published.count == 1)
        #expect(quiet.inRange == 3)
    }

    /// A crowd of 100 beacons passes while one stays: the stage asks once for free memory to be handed back, when
    /// the lists it still holds no longer name the crowd, and not while the one beacon goes on.
    @Test func aCrowdLeavingReleasesFreeMemoryOnceItsListsAreGone() {
        final class Count: @unchecked Sendable {
            private let lock = ConditionLock()
            private var value = 0
            func add() { lock.withLock { value += 1 } }
            var now: Int { lock.withLock { value } }
        }
        var session = exactSession(exitPeriod: 10)
        let released = Count()
        let published = Published()
        let stage = BeaconListStage(
            localize: .english, releaseFreeMemory: { released.add() }, publish: { published.take($0) })
        let inputs = BeaconListInputs(state: .scanning, listWanted: true)
        _ = feed(&session, (1...100).map { sighting(UInt16($0), rssi: -70, at: 0.5) })
        var listed: [Int] = []
        var releasedAt: [Int] = []
        for second in 1...40 {
            let t = Double(second)
            _ = feed(&session, [sighting(1, rssi: -60, at: t - 0.5)])
            _ = stage.process(tick(&session, at: t), inputs: inputs, refresh: false)
            listed.append(published.last?.order.count ?? -1)
            if released.now > releasedAt.count { releasedAt.append(second) }
        }
        #expect(listed.first == 100)
        #expect(listed.last == 1)
        #expect(released.now == 1, "released \(released.now) times over \(listed)")
        // The second list in a row without the crowd: the stage held the last one that named it until then.
        let firstSmall = (listed.firstIndex { $0 <= 50 } ?? 0) + 1
        #expect(releasedAt == [firstSmall + 1], "lists \(listed), released at \(releasedAt)")
    }

    @Test func aCataloguedPlaceIsEnteredAtItsFirstSightingAndLeftAfterTheExitPeriod() {
        var session = exactSession(exitPeriod: 10)
        session.setCatalog(CatalogIndex([place(1, "Café")]))
        let entered = feed(
            &session, [sighting(1, rssi: -60, at: 5), sighting(1, rssi: -60, at: 6), sighting(2, rssi: -60, at: 6)])
        let entries = entered.compactMap { if case .region(let e) = $0 { e } else { nil } }
        #expect(entries.map(\.kind) == [.enter])
        #expect(entries.first?.beacon == id(1))
        #expect(entries.first?.region == CatalogIndex.region(id(1)))
        let stillThere = tick(&session, at: 16)
        #expect(!stillThere.contains { if case .region = $0 { true } else { false } })
        let gone = tick(&session, at: 16.5)
        #expect(gone.contains { if case .region(let e) = $0 { e.kind == .exit } else { false } })
    }

    @Test func aPlaceLearntWhileItsBeaconIsInRangeIsEnteredAtTheNextSighting() {
        var session = exactSession()
        // Seen before the catalog knew it: no region, no entry.
        #expect(feed(&session, [sighting(7, rssi: -60, at: 1)]).isEmpty)
        session.setCatalog(CatalogIndex([place(7, "Museo")]))
        let next = feed(&session, [sighting(7, rssi: -60, at: 2)])
        #expect(next.count == 1)
        if case .region(let event) = next.first {
            #expect(event.kind == .enter && event.announce)
        } else {
            Issue.record("no entry after the catalog learnt the place")
        }
    }

    @Test func resetForgetsBeaconsButKeepsTheCoolDown() throws {
        var session = exactSession(coolDown: 600)
        session.setCatalog(CatalogIndex([place(1, "Café")]))
        _ = feed(&session, [sighting(1, rssi: -59, at: 0), sighting(2, rssi: -65, at: 0)])
        _ = tick(&session, at: 1)
        #expect(session.inRange == 2)
        session.reset()
        #expect(session.inRange == 0)
        #expect(session.current.snapshot.beacons.isEmpty)
        // Back within the cool-down: an entry again (the user left as far as Faro knows), but not announced.
        let again = feed(&session, [sighting(1, rssi: -59, at: 100)])
        guard case .region(let event) = try #require(again.first) else {
            Issue.record("no entry after a reset")
            return
        }
        #expect(event.kind == .enter)
        #expect(!event.announce)
        let published = Published()
        let stage = BeaconListStage(localize: .english, publish: { published.take($0) })
        _ = stage.process(
            [.ranged(RangedBeacons(snapshot: RangingSnapshot(time: 0, beacons: []), catalog: CatalogIndex()))],
            inputs: BeaconListInputs(state: .paused, listWanted: true), refresh: true)
        #expect(published.last?.model.emptyTitle == "Monitoring is paused")
    }

    @Test func resetKeepsCollectingReadings() {
        var session = exactSession()
        session.collectReadings(true)
        _ = feed(&session, [sighting(1, rssi: -59, at: 0)])
        _ = tick(&session, at: 1)
        #expect(session.takeCollected().count == 1)
        session.reset()
        _ = feed(&session, [sighting(1, rssi: -59, at: 5)])
        _ = tick(&session, at: 6)
        #expect(session.takeCollected().map(\.reading.time) == [5], "readings are still collected after a reset")
    }

    @Test func historiesGrowOneValuePerTickSoEveryRangedRowChanges() throws {
        var session = exactSession()
        let published = Published()
        let stage = BeaconListStage(localize: .english, publish: { published.take($0) })
        let wanted = BeaconListInputs(state: .scanning, listWanted: true)
        func list(_ updates: [BeaconSessionUpdate], refresh: Bool = false) throws -> BeaconListUpdate {
            let before = published.count
            guard case .ranged = try #require(stage.process(updates, inputs: wanted, refresh: refresh).last)
            else { throw SessionTestFailure() }
            #expect(published.count == before + 1)
            return try #require(published.last)
        }
        _ = feed(&session, [sighting(1, rssi: -65, at: 0)])
        let first = try list(tick(&session, at: 1))
        _ = feed(&session, [sighting(1, rssi: -65, at: 1.5)])
        let second = try list(tick(&session, at: 2))
        #expect(second.model.rows[0].history.count == 2)
        #expect(second.row(id(1))?.revision != first.row(id(1))?.revision)
        // Showing it again without a tick changes nothing.
        let again = try list([.ranged(session.current)], refresh: true)
        #expect(again.row(id(1))?.revision == second.row(id(1))?.revision)
    }

    @Test func aTicksSnapshotStaysAsItWasWhileTheSessionTicksOn() {
        var session = exactSession()
        _ = feed(&session, [sighting(1, rssi: -65, at: 0), sighting(2, rssi: -79, at: 0)])
        let first = session.tick(at: 1) { _ in }
        #expect(session.lastSnapshot == first)
        #expect(session.current.snapshot == first)
        _ = feed(&session, [sighting(1, rssi: -65, at: 1.5)])
        let second = session.tick(at: 2) { _ in }
        #expect(first.beacons.map(\.history.count) == [1, 1])
        #expect(second.beacons.map(\.history.count) == [2, 2])
        #expect(Array(second.beacons[0].history.prefix(1)) == Array(first.beacons[0].history))
        #expect(session.lastSnapshot == second)
        #expect(session.current.snapshot == second)
    }

    @Test func theSourceClockFollowsTheSourceBetweenSightings() {
        var clock = SourceClock()
        #expect(clock.estimate(at: 50) == 0)
        clock.heard(sourceTime: 1000, at: 50)
        #expect(clock.estimate(at: 52.5) == 1002.5)
        clock.heard(sourceTime: 999, at: 53)  // an older stamp never moves it back
        #expect(clock.estimate(at: 53) == 1000)
        clock.reset()
        #expect(clock.estimate(at: 60) == 0)
    }
}

struct SessionTestFailure: Error {}
