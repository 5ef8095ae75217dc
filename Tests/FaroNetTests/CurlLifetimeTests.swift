import FaroApp
import FaroCore
import FaroCurl
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// Whether this process maps libcurl itself (not only whether the loader says it is open).
func mapsLibcurl() -> Bool {
    // /proc files report no size: read to the end rather than by the file's length.
    let maps = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data()
    return String(decoding: maps, as: UTF8.self).contains("/libcurl.so")
}

/// Polls `condition` for up to `timeout` seconds.
func becomes(within timeout: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return condition()
}

/// libcurl is open while a handle exists and closed once none has existed for the idle time
/// (CShim/curl_loader.c): the tray app's steady memory between two catalog pulls. The idle time is shortened for
/// the test and restored after it.
@Suite(.serialized) struct CurlLifetimeTests {
    @Test func libcurlIsClosedWhenTheLastHandleIsGoneAndOpensAgainForTheNextRequest() throws {
        let backend = try BackendProcess()
        CurlRuntime.setIdleUnload(seconds: 0.2)
        defer { CurlRuntime.setIdleUnload(seconds: 60) }
        let client = try TablesClient(configuration: try backend.configuration())
        #expect(try client.catalog(major: 100, minor: 1).first?.cliente == "Café La Parroquia")
        // A handle that lives longer than the idle time keeps libcurl open: nothing is closed under it.
        Thread.sleep(forTimeInterval: 0.8)
        #expect(CurlRuntime.isLoaded && mapsLibcurl())
        #expect(try client.catalog(major: 100, minor: 2).count == 1)
        client.closeConnection()
        #expect(becomes { !CurlRuntime.isLoaded && !mapsLibcurl() })
        // The same client connects again: libcurl is opened and started again, and the request is answered.
        let loads = CurlRuntime.loadCount
        #expect(try client.catalog(major: 100, minor: 1).first?.cliente == "Café La Parroquia")
        #expect(CurlRuntime.loadCount == loads + 1)
        // An error text read after the library is gone is still whole (it is copied, not libcurl's own).
        client.closeConnection()
        #expect(becomes { !CurlRuntime.isLoaded })
        let refused = try TablesClient(configuration: try BackendConfiguration(baseURL: "http://127.0.0.1:9"))
        guard case .failure(let error) = refused.get("http://127.0.0.1:9/tables/beacons") else {
            Issue.record("a request to a closed port succeeded")
            return
        }
        #expect(error.description.lowercased().contains("connect"))
    }

    @Test func theCatalogServiceLetsLibcurlCloseBetweenTwoPulls() throws {
        let dir = try TemporaryDirectory("faro-curl-idle")
        let backend = try BackendProcess()
        CurlRuntime.setIdleUnload(seconds: 0.2)
        defer { CurlRuntime.setIdleUnload(seconds: 60) }
        let configuration = try backend.configuration()
        let clock = ManualClock()
        let path = dir.file("faro.sqlite3")
        let service = CatalogService(
            clock: clock,
            makeSyncer: { try CatalogSync(databasePath: path, configuration: configuration, clock: clock) },
            main: { $0() }, onUpdate: { _ in })
        service.start()
        defer { service.stop() }
        #expect(service.waitUntilSettled(timeout: 30))
        #expect(service.index.count == 8)
        // Settled until the next periodic pull (15 minutes of the clock): the syncer's connection is closed, and
        // with no handle left libcurl goes.
        #expect(becomes { !CurlRuntime.isLoaded && !mapsLibcurl() })
        // The next periodic pull (the clock moved on by the period) opens libcurl again, and it goes again after.
        let loads = CurlRuntime.loadCount
        clock.advance(by: CatalogSyncSettings().period + 1)
        #expect(service.waitUntilSettled(timeout: 30))
        #expect(CurlRuntime.loadCount == loads + 1)
        #expect(service.reachability == .reachable && service.index.count == 8)
        #expect(becomes { !CurlRuntime.isLoaded && !mapsLibcurl() })
    }

    @Test func anIdleOutboxNeverOpensLibcurlAndItsFirstRowDoes() throws {
        let dir = try TemporaryDirectory("faro-curl-outbox")
        let backend = try BackendProcess()
        CurlRuntime.setIdleUnload(seconds: 0.2)
        defer { CurlRuntime.setIdleUnload(seconds: 60) }
        #expect(becomes { !CurlRuntime.isLoaded })
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        let deliverer = OutboxDeliverer(
            databasePath: path, configuration: try backend.configuration(),
            schedule: BackoffSchedule(base: 0.02, cap: 0.2))
        let loads = CurlRuntime.loadCount
        deliverer.start()
        defer { deliverer.stop() }
        // Its passes find nothing to send: they read the database and leave libcurl closed.
        #expect(deliverer.waitForStatus(timeout: 30) { $0.passes >= 1 && $0.counts?.pending == 0 } != nil)
        #expect(CurlRuntime.loadCount == loads && !CurlRuntime.isLoaded && !mapsLibcurl())
        // The first row to send opens it, and is delivered.
        let site = SiteIdentity(cliente: "Cliente 1", titulo: "Título", url: "http://s/1")
        let row = try db.outbox.submit(
            .rateme(SiteRating(site: site, imei: "imei", calificacion: 4, fechahora: "2026-11-29T14:03:07.123Z")),
            now: Date().timeIntervalSince1970, backend: backend.url)
        deliverer.wake()
        #expect(deliverer.waitForStatus(timeout: 30) { $0.counts?.delivered == 1 } != nil)
        #expect(CurlRuntime.loadCount == loads + 1)
        #expect(try backendIDs(backend, table: "rateme") == [row.id])
    }
}
