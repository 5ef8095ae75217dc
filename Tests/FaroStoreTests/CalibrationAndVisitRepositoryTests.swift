import FaroCore
import FaroStore
import Testing

/// The calibrations, adapter offsets and visits tables (docs/calibration.md, docs/visits.md) on a real SQLite file.
@Suite("calibration and visit repositories")
struct CalibrationAndVisitRepositoryTests {
    let one = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 2), major: 1, minor: 2)
    let two = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 2), major: 1, minor: 3)

    func result(_ identity: BeaconIdentity, _ power: Double) throws -> CalibrationResult {
        var sampler = CalibrationSampler(target: identity)
        for i in 0..<12 {
            sampler.add(
                BeaconSighting(
                    beacon: IBeacon(identity: identity, measuredPower: -59),
                    address: BluetoothAddress("C0:FF:EE:00:00:01")!,
                    rssi: Int8(power), time: Double(i)))
        }
        return try sampler.result()
    }

    @Test func calibrationsAndOffsetsAreStoredReplacedAndForgotten() throws {
        let (dir, path) = try freshDatabasePath()
        _ = dir
        do {
            let db = try FaroDatabase(path: path)
            try db.calibrations.save(try result(one, -65), adapter: "replay", at: 100)
            try db.calibrations.save(try result(one, -63), adapter: "replay", at: 200)
            try db.calibrations.setOffset(-4, adapter: "replay", from: one, at: 200)
            try db.calibrations.setOffset(2.5, adapter: "AA:BB:CC:DD:EE:FF", from: one, at: 200)
        }
        let db = try FaroDatabase(path: path)
        let all = try db.calibrations.all()
        #expect(all.count == 1)
        #expect(all.first?.measuredPower == -63)
        #expect(all.first?.advertisedPower == -59)
        #expect(all.first?.readings == 12)
        #expect(all.first?.calibratedAt == 200)
        let replay = try db.calibrations.powerCalibration(adapter: "replay")
        #expect(replay.power(for: one, advertised: -59) == -63)
        #expect(replay.power(for: two, advertised: -59) == -63)
        #expect(
            try db.calibrations.powerCalibration(adapter: "AA:BB:CC:DD:EE:FF").power(for: two, advertised: -59) == -56.5
        )
        #expect(try db.calibrations.powerCalibration(adapter: "other").power(for: two, advertised: -59) == -59)
        #expect(try db.calibrations.delete(one))
        #expect(try !db.calibrations.delete(one))
        #expect(try db.calibrations.deleteOffset(adapter: "replay"))
        #expect(try db.calibrations.offsets().map(\.adapter) == ["AA:BB:CC:DD:EE:FF"])
        try db.calibrations.deleteAll()
        #expect(try db.calibrations.offsets().isEmpty)
    }

    @Test func visitsKeepTheirOrderWhenTheClockGoesBackAndAreNeverDuplicated() throws {
        let (dir, path) = try freshDatabasePath()
        _ = dir
        let db = try FaroDatabase(path: path)
        let first = try db.visits.enter(
            placeID: "p1", business: "Café", title: "Menú", url: "https://x/1", identity: one, at: 1000, distance: 4)
        // A second entry while the first visit is open (the app restarted inside) continues it.
        #expect(
            try db.visits.enter(
                placeID: "p1", business: "Café", title: "Menú", url: "https://x/1", identity: one, at: 1010) == first)
        try db.visits.sawDistance(placeID: "p1", 1.5)
        try db.visits.sawDistance(placeID: "p1", 3)
        // The clock was set back before the user left: the stored exit is never before the entry.
        try db.visits.leave(placeID: "p1", at: 900)
        _ = try db.visits.enter(
            placeID: "p2", business: "Libros", title: "Ofertas", url: "https://x/2", identity: two, at: 950)
        let list = try db.visits.list()
        #expect(list.map(\.placeID) == ["p1", "p2"])
        #expect(list[0].leftAt == 1000)
        #expect(list[0].closest == 1.5)
        #expect(list[1].leftAt == nil)
        #expect(try db.visits.list(since: 960).map(\.placeID) == ["p1"])
        try db.visits.leaveAll(at: 2000)
        #expect(try db.visits.list().allSatisfy { $0.leftAt != nil })
        #expect(try db.visits.deleteEntered(before: 960) == 1)
        #expect(try db.visits.count() == 1)
        #expect(try db.visits.clear() == 1)
        #expect(try db.visits.count() == 0)
    }

    @Test func visitedNamesAndTheVisitsOfChosenPlaces() throws {
        let (dir, path) = try freshDatabasePath()
        _ = dir
        let db = try FaroDatabase(path: path)
        for (i, at) in [100.0, 200, 300].enumerated() {
            _ = try db.visits.enter(
                placeID: "p1", business: "Café", title: i < 2 ? "Menú" : "Menú del día", url: "https://x/1",
                identity: one, at: at)
            try db.visits.leave(placeID: "p1", at: at + 10)
        }
        _ = try db.visits.enter(
            placeID: "p2", business: "Libros", title: "Ofertas", url: "https://x/2", identity: two, at: 250)
        // One row per name a place had, whatever the number of its visits.
        let names = try db.visits.visitedNames().map { "\($0.placeID) \($0.title)" }.sorted()
        #expect(names == ["p1 Menú", "p1 Menú del día", "p2 Ofertas"])
        // The chosen places' visits, newest first, at most the limit.
        #expect(try db.visits.list(places: ["p1"], limit: 500).map(\.enteredAt) == [300, 200, 100])
        #expect(try db.visits.list(places: ["p1", "p2"], limit: 2).map(\.placeID) == ["p1", "p2"])
        #expect(try db.visits.list(places: [], limit: 500).isEmpty)
    }
}
