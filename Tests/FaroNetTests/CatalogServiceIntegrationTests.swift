import FaroApp
import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// Updates a catalog service reported.
final class ServiceLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [CatalogServiceUpdate] = []
    func add(_ update: CatalogServiceUpdate) {
        lock.lock()
        items.append(update)
        lock.unlock()
    }
    var reachabilities: [CatalogReachability] {
        lock.lock()
        defer { lock.unlock() }
        return items.compactMap { if case .reachability(let r) = $0 { return r } else { return nil } }
    }
    var lastIndex: CatalogIndex? {
        lock.lock()
        defer { lock.unlock() }
        return items.compactMap { if case .catalogChanged(let i) = $0 { return i } else { return nil } }.last
    }
}

/// The display-free catalog service with the real sync against faro-backend: the offline start at
/// the service level (the window's version is a UI test), on an injected clock, waiting on the service's own
/// "settled" event rather than on time.
@Suite(.serialized) struct CatalogServiceIntegrationTests {
    let cafe = BeaconIdentity(uuid: BeaconUUID("fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1")!, major: 100, minor: 1)

    func service(_ configuration: BackendConfiguration, database: String, clock: ManualClock, log: ServiceLog)
        -> CatalogService
    {
        CatalogService(
            clock: clock,
            makeSyncer: { try CatalogSync(databasePath: database, configuration: configuration, clock: clock) },
            main: { $0() }, onUpdate: { log.add($0) })
    }

    @Test func startedOfflineTheServiceLearnsTheNamesOnceTheBackendReturns() throws {
        let dir = try TemporaryDirectory("faro-service")
        // A port nothing listens on for now (the backend is "refused" until it starts there).
        let port: Int
        do { port = try BackendProcess().port }
        let configuration = try BackendConfiguration(baseURL: "http://127.0.0.1:\(port)")
        let clock = ManualClock()
        let log = ServiceLog()
        let s = service(configuration, database: dir.file("faro.sqlite3"), clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 30))
        guard case .unreachable(let reason) = s.reachability else {
            Issue.record("expected unreachable, got \(s.reachability)")
            return
        }
        #expect(reason.contains("cannot reach the backend"))
        s.unknownBeaconSighted(cafe)  // seen while offline: "Beacon desconocido" for now
        for _ in 0..<20 {  // refused for 20 s of the clock
            clock.advance(by: 1)
            #expect(s.waitUntilSettled(timeout: 30))
        }
        #expect(s.index.place(for: cafe) == nil)
        let backend = try BackendProcess(["--port", String(port)])
        #expect(backend.port == port)
        s.networkAvailable()
        #expect(s.waitUntilSettled(timeout: 30))
        #expect(s.reachability == .reachable)
        #expect(s.index.place(for: cafe)?.cliente == "Café La Parroquia")
        #expect(log.lastIndex?.count == 8)
        #expect(log.reachabilities.first.map { if case .unreachable = $0 { true } else { false } } == true)
        #expect(log.reachabilities.last == .reachable)
        // A restart offline names the places at once from the local catalog.
        backend.child.signal(SIGKILL)
        _ = backend.child.wait(timeout: 10)
        let offline = ServiceLog()
        let again = service(configuration, database: dir.file("faro.sqlite3"), clock: clock, log: offline)
        again.start()
        defer { again.stop() }
        #expect(again.waitUntilSettled(timeout: 30))
        #expect(again.index.place(for: cafe)?.titulo == "Café de olla y pan dulce")
    }

    @Test func whereListingIsRefusedASightedBeaconIsLookedUp() throws {
        let dir = try TemporaryDirectory("faro-service")
        let backend = try BackendProcess(["--refuse-listing", "beacons"])
        let clock = ManualClock()
        let log = ServiceLog()
        let s = service(try backend.configuration(), database: dir.file("faro.sqlite3"), clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 30))
        #expect(s.reachability == .reachable && s.index.isEmpty)
        s.unknownBeaconSighted(cafe)
        #expect(s.waitUntilSettled(timeout: 30))
        #expect(s.index.place(for: cafe)?.cliente == "Café La Parroquia")
    }

    @Test func aRefusedAppKeyIsReportedUntilTheKeyIsSet() throws {
        let dir = try TemporaryDirectory("faro-service")
        let backend = try BackendProcess(["--app-key", "sekret"])
        let clock = ManualClock()
        let log = ServiceLog()
        let path = dir.file("faro.sqlite3")
        let s = service(try backend.configuration(), database: path, clock: clock, log: log)
        s.start()
        defer { s.stop() }
        #expect(s.waitUntilSettled(timeout: 30))
        guard case .appKeyRefused(let reason) = s.reachability else {
            Issue.record("expected the app key refused, got \(s.reachability)")
            return
        }
        #expect(reason.contains("401"))
        let keyed = try BackendConfiguration(baseURL: backend.url, appKey: "sekret")
        s.configurationChanged(makeSyncer: { try CatalogSync(databasePath: path, configuration: keyed, clock: clock) })
        #expect(s.waitUntilSettled(timeout: 30))
        #expect(s.reachability == .reachable && s.index.count == 8)
    }
}
