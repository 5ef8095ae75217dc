import FaroApp
import FaroCore
import Foundation
import Testing

/// A syncer that answers from a script, counting what it was asked (the real one, against faro-backend, is tested
/// in FaroNetTests).
final class ScriptedSyncer: CatalogSyncing, @unchecked Sendable {
    private let lock = NSLock()
    var stored: [CatalogPlace]
    /// What the backend holds: a pull copies it into `stored` unless `failure` is set.
    var backend: [CatalogPlace]
    var failure: CatalogAttemptOutcome?
    private(set) var pulls = 0
    private(set) var lookups: [[BeaconIdentity]] = []

    init(stored: [CatalogPlace] = [], backend: [CatalogPlace] = []) {
        self.stored = stored
        self.backend = backend
    }

    func set(_ body: (ScriptedSyncer) -> Void) {
        lock.lock()
        body(self)
        lock.unlock()
    }

    var pullCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return pulls
    }

    var lookupRounds: [[BeaconIdentity]] {
        lock.lock()
        defer { lock.unlock() }
        return lookups
    }

    func localPlaces() -> [CatalogPlace] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func pull() -> CatalogAttemptOutcome {
        lock.lock()
        defer { lock.unlock() }
        pulls += 1
        if let failure { return failure }
        var report = CatalogPullReport()
        report.added = max(0, backend.count - stored.count)
        report.updated = backend == stored ? 0 : 1
        stored = backend
        return .pulled(report)
    }

    func lookUp(_ identities: [BeaconIdentity]) -> CatalogAttemptOutcome {
        lock.lock()
        defer { lock.unlock() }
        lookups.append(identities)
        if let failure { return failure }
        var found: [BeaconIdentity] = []
        for identity in identities {
            if let place = CatalogIndex(backend).place(for: identity) {
                stored.removeAll { $0.id == place.id }
                stored.append(place)
                found.append(identity)
            }
        }
        return .lookedUp(found: found, missing: identities.filter { !found.contains($0) })
    }
}

/// Updates the service reported, in order.
final class UpdateLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [CatalogServiceUpdate] = []
    func add(_ update: CatalogServiceUpdate) {
        lock.lock()
        items.append(update)
        lock.unlock()
    }
    var all: [CatalogServiceUpdate] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
    var indexes: [CatalogIndex] {
        all.compactMap { if case .catalogChanged(let index) = $0 { return index } else { return nil } }
    }
    var reachabilities: [CatalogReachability] {
        all.compactMap { if case .reachability(let r) = $0 { return r } else { return nil } }
    }
}

@Suite(.serialized) struct CatalogServiceUnitTests {
    static let uuid = BeaconUUID(high: 0xFA20, low: 1)
    let cafe = CatalogPlace(
        identity: BeaconIdentity(uuid: uuid, major: 100, minor: 1), cliente: "Café", titulo: "Menú", url: "u1",
        id: "1")
    let libreria = CatalogPlace(
        identity: BeaconIdentity(uuid: uuid, major: 100, minor: 2), cliente: "Librería", titulo: "Libros", url: "u2",
        id: "2")

    func service(_ syncer: ScriptedSyncer, clock: ManualClock, log: UpdateLog) -> CatalogService {
        CatalogService(
            clock: clock, makeSyncer: { syncer }, main: { $0() }, onUpdate: { log.add($0) })
    }

    @Test func theLocalCatalogComesFirstThenThePull() throws {
        let clock = ManualClock()
        let log = UpdateLog()
        let syncer = ScriptedSyncer(stored: [cafe], backend: [cafe, libreria])
        let s = service(syncer, clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(log.indexes.map(\.count) == [1, 2])  // offline names at once, then the backend's
        #expect(log.reachabilities == [.reachable])
        #expect(syncer.pullCount == 1)
        // Nothing more until the period has passed on the clock.
        clock.advance(by: 899)
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(syncer.pullCount == 1)
        clock.advance(by: 1)
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(syncer.pullCount == 2)
    }

    @Test func offlineAtStartTheNamesArriveWhenTheBackendReturns() throws {
        let clock = ManualClock()
        let log = UpdateLog()
        let syncer = ScriptedSyncer(backend: [cafe])
        syncer.set { $0.failure = .unreachable("cannot reach the backend: Couldn't connect to server") }
        let s = service(syncer, clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(log.reachabilities == [.unreachable(reason: "cannot reach the backend: Couldn't connect to server")])
        s.unknownBeaconSighted(cafe.identity)
        // Refused for 20 s: retries with backoff (a handful, not a loop), each failing.
        for _ in 0..<20 {
            clock.advance(by: 1)
            #expect(s.waitUntilSettled(timeout: 10))
        }
        let failedPulls = syncer.pullCount
        #expect((2...6).contains(failedPulls))
        #expect(s.index.isEmpty)
        // The backend is back; GIO says so: the names come at once.
        syncer.set { $0.failure = nil }
        s.networkAvailable()
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(syncer.pullCount == failedPulls + 1)
        #expect(s.index.place(for: cafe.identity)?.cliente == "Café")
        #expect(log.reachabilities.last == .reachable)
        #expect(log.indexes.last?.place(for: cafe.identity) != nil)
    }

    @Test func withoutANetworkEventTheBackoffRetryFindsTheBackend() throws {
        let clock = ManualClock()
        let log = UpdateLog()
        let syncer = ScriptedSyncer(backend: [cafe])
        syncer.set { $0.failure = .unreachable("refused") }
        let s = service(syncer, clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 10))
        syncer.set { $0.failure = nil }
        clock.advance(by: 5)  // the first retry is due within 5 s
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(s.index.count == 1 && syncer.pullCount == 2)
    }

    @Test func anUnknownBeaconIsAskedForSoonAndSightingsOfKnownOnesCostNothing() throws {
        let clock = ManualClock()
        let log = UpdateLog()
        let syncer = ScriptedSyncer(backend: [cafe])
        let s = service(syncer, clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 10))
        syncer.set { $0.backend = [cafe, libreria] }  // a place added on the backend after the start
        for _ in 0..<50 { s.unknownBeaconSighted(cafe.identity) }  // known: no trigger
        s.unknownBeaconSighted(libreria.identity)
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(syncer.pullCount == 1)  // rate-limited: 30 s after the last pull
        clock.advance(by: 30)
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(syncer.pullCount == 2)
        #expect(s.index.place(for: libreria.identity)?.cliente == "Librería")
    }

    @Test func whereListingIsRefusedTheServiceLooksBeaconsUp() throws {
        let clock = ManualClock()
        let log = UpdateLog()
        let syncer = ScriptedSyncer(backend: [cafe, libreria])
        syncer.set { $0.failure = .listingRefused(status: 403) }
        let s = service(syncer, clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 10))
        syncer.set { $0.failure = nil }
        s.unknownBeaconSighted(libreria.identity)
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(syncer.lookupRounds == [[libreria.identity]])
        #expect(s.index.place(for: libreria.identity)?.titulo == "Libros")
        #expect(syncer.pullCount == 1)
    }

    @Test func aNewConfigurationStartsAgainWithTheNewSyncer() throws {
        let clock = ManualClock()
        let log = UpdateLog()
        let refused = ScriptedSyncer(backend: [cafe])
        refused.set { $0.failure = .keyRefused("the backend refused the app key (HTTP 401)") }
        let s = service(refused, clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(s.reachability == .appKeyRefused(reason: "the backend refused the app key (HTTP 401)"))
        s.networkAvailable()
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(refused.pullCount == 1)  // the key is still wrong: nothing is asked
        let keyed = ScriptedSyncer(backend: [cafe, libreria])
        s.configurationChanged(makeSyncer: { keyed })
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(keyed.pullCount == 1 && s.reachability == .reachable && s.index.count == 2)
    }

    @Test func aSyncerThatCannotBeMadeIsRetriedLater() throws {
        let clock = ManualClock()
        let log = UpdateLog()
        let attempts = Counter()
        struct Locked: Error, CustomStringConvertible { var description = "the database is locked" }
        let syncer = ScriptedSyncer(backend: [cafe])
        let s = CatalogService(
            clock: clock,
            makeSyncer: {
                attempts.add()
                if attempts.value < 2 { throw Locked() }
                return syncer
            }, main: { $0() }, onUpdate: { log.add($0) })
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(s.reachability == .unreachable(reason: "the database is locked"))
        clock.advance(by: 5)
        #expect(s.waitUntilSettled(timeout: 10))
        #expect(attempts.value == 2 && s.index.count == 1)
    }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
