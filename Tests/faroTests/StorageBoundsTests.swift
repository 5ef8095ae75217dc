import FaroApp
import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@testable import faro

/// Storage that stays bounded (docs/storage.md), on a real SQLite file: an hour of monitoring 40 catalogued places
/// in range, each ranged once a second with a noisy distance, through the window's visit recorder. The write
/// volume is read from the WAL itself (its size after each simulated minute, the WAL emptied before it).
@Suite("Storage stays bounded")
@MainActor
struct StorageBoundsTests {
    /// The goal is 20 kB a minute to the database and its WAL; every page in the WAL is written once more into the
    /// database by a checkpoint, so the WAL's share is half.
    static let walBudgetPerMinute = 10 * 1024

    final class Clock {
        var now = 1_796_000_000.0
    }

    static func places() -> [CatalogPlace] {
        let uuid = BeaconUUID("fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1")
        return (0..<40).compactMap { i -> CatalogPlace? in
            guard let uuid else { return nil }
            return CatalogPlace(
                identity: BeaconIdentity(uuid: uuid, major: UInt16(400 + i / 10), minor: UInt16(i % 10 + 1)),
                cliente: "Negocio \(i)", titulo: "Lugar \(i)", url: "https://example.mx/\(i)")
        }
    }

    static func walSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test func anHourOfFortyPlacesWritesLittleAndReachesTheDatabaseFile() throws {
        let dir = try TemporaryDirectory("faro-storage")
        let path = dir.file("faro.sqlite3")
        let database = try FaroDatabase(path: path)
        // The other connections the window keeps open on the same file (the catalog's and the outbox's), each having
        // read through the statement cache: none may keep a checkpoint from finishing.
        let catalog = try FaroDatabase(path: path, durable: false)
        let deliverer = try FaroDatabase(path: path, durable: false)
        _ = try catalog.catalog.places(source: "soak")
        _ = try deliverer.outbox.counts()
        let clock = Clock()
        let profile = DatabaseProfileAdapters(database: database, clock: { clock.now })
        let places = Self.places()
        #expect(places.count == 40)
        for place in places {
            profile.entered(
                regionID: CatalogIndex.region(place.identity).identifier, place: place, at: clock.now)
        }
        var generator = SplitMix64(seed: 7)
        var distances = places.map { _ in 2.0 + Double.random(in: 0..<1, using: &generator) * 8 }
        var closest = distances
        var perMinute: [Int] = []
        for _ in 0..<60 {
            try database.checkpoint(truncate: true)
            #expect(Self.walSize(path) == 0)
            for _ in 0..<60 {
                clock.now += 1
                for (i, place) in places.enumerated() {
                    // A random walk: the closest distance keeps being beaten now and then, as it is in a room.
                    distances[i] = max(0.3, distances[i] * (0.9 + Double.random(in: 0..<1, using: &generator) * 0.2))
                    closest[i] = min(closest[i], distances[i])
                    profile.ranged(regionID: CatalogIndex.region(place.identity).identifier, distance: distances[i])
                }
            }
            perMinute.append(Self.walSize(path))
        }
        let average = perMinute.reduce(0, +) / perMinute.count
        #expect(average <= Self.walBudgetPerMinute, "WAL bytes per simulated minute: \(perMinute)")
        #expect(perMinute.max() ?? 0 <= 2 * Self.walBudgetPerMinute, "WAL bytes per simulated minute: \(perMinute)")

        // The visits end; the data reaches the database file and the WAL is cut back.
        clock.now += 1
        profile.leftAll(at: clock.now)
        let checkpoint = try database.checkpoint()
        #expect(!checkpoint.busy)
        #expect(checkpoint.copiedPages == checkpoint.walPages)
        #expect(Self.walSize(path) <= FaroDatabase.walSizeLimit)
        // The main file alone, without its WAL, holds every visit with its closest distance.
        let copy = dir.file("main-only.sqlite3")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let alone = try FaroDatabase(path: copy, mode: .readOnly)
        let visits = try alone.visits.list(limit: 100)
        #expect(visits.count == 40)
        #expect(visits.allSatisfy { $0.leftAt == clock.now })
        for visit in visits {
            let i = places.firstIndex { $0.identity == visit.identity } ?? 0
            let written = try #require(visit.closest)
            // Only 5 % closer counts as closer: the written distance is within 5 % of the true closest.
            #expect(written >= closest[i] && written <= closest[i] / DatabaseProfileAdapters.closerBy)
        }
        _ = catalog
        _ = deliverer
    }

    @Test func aCloserDistanceIsWrittenWithTheExitEvenWithinTheMinute() throws {
        let dir = try TemporaryDirectory("faro-storage")
        let database = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let clock = Clock()
        let profile = DatabaseProfileAdapters(database: database, clock: { clock.now })
        let place = try #require(Self.places().first)
        let region = CatalogIndex.region(place.identity).identifier
        profile.entered(regionID: region, place: place, at: clock.now)
        profile.ranged(regionID: region, distance: 4)
        clock.now += 5
        profile.ranged(regionID: region, distance: 1.5)
        // Within the minute: not written yet.
        #expect(try database.visits.list().first?.closest == 4)
        clock.now += 5
        profile.left(regionID: region, at: clock.now)
        let visit = try #require(try database.visits.list().first)
        #expect(visit.closest == 1.5)
        #expect(visit.leftAt == clock.now)
    }

    @Test func maintenanceDeletesOldVisitsAndDeliveredRowsAndCheckpoints() throws {
        let dir = try TemporaryDirectory("faro-storage")
        let database = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let now = 1_796_000_000.0
        let day = 86_400.0
        let place = try #require(Self.places().first)
        for age in [40.0, 31, 2] {
            try database.visits.enter(
                placeID: "p\(age)", business: "b", title: "t", url: "u", identity: place.identity,
                at: now - age * day)
        }
        var random = SplitMix64(seed: 1)
        let delivered = OutboxTransition.after(
            .delivered, previousAttempts: 0, now: now, schedule: .background, random: &random)
        for (i, name) in ["A", "B", "C"].enumerated() {
            let registration = try BusinessRegistration.validate(
                nombre: name, email: "\(name.lowercased())@example.mx", telefono: "5512345678"
            ).get()
            try database.outbox.enqueue(.interested(registration), id: "row\(i)", now: now - 40 * day)
        }
        // The first delivered 35 days ago, the second 3 days ago, the third still waiting.
        try database.outbox.apply(delivered, toRow: 1, now: now - 35 * day)
        try database.outbox.apply(delivered, toRow: 2, now: now - 3 * day)
        let report = try StoreMaintenance.run(on: database, now: now, visitsRetentionDays: 30)
        #expect(report.visitsDeleted == 2)
        #expect(report.deliveredDeleted == 1)
        #expect(!report.checkpoint.busy)
        #expect(report.checkpoint.copiedPages == report.checkpoint.walPages)
        #expect(try database.visits.count() == 1)
        let counts = try database.outbox.counts()
        #expect(counts.delivered == 1)
        #expect(counts.pending == 1)
    }
}
