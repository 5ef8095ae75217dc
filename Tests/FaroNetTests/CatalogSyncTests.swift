import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// A catalog for faro-backend's `--load`: rows of table `table`, in groups that share one `updatedAt` (so groups
/// straddle page boundaries), with the last `tail` rows all sharing a single timestamp.
struct CatalogFixture {
    static let uuid = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"

    static func rows(count: Int, group: Int = 73, tail: Int = 120) -> [JSONValue] {
        (0..<count).map { i in
            let g = i >= count - tail ? count : i / group
            let stamp = String(cFormat: "2020-01-%02ldT%02ld:%02ld:00.000Z", 1 + g / 1440, (g / 60) % 24, g % 60)
            return .object([
                ("id", .string(String(cFormat: "b%05ld", i))), ("uuid", i % 10 == 9 ? .null : .string(uuid)),
                ("major", .integer(Int64(1000 + i / 1000))), ("minor", .integer(Int64(i % 1000))),
                ("cliente", .string("Cliente \(i)")), ("titulo", .string("Título \(i)")),
                ("url", .string("https://sitios.example/\(i)/")), ("updatedAt", .string(stamp)),
            ])
        }
    }

    static func write(_ table: String, _ rows: [JSONValue], to path: String) throws {
        try JSONValue.object([(table, .array(rows))]).serialized.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Applies a load file to the database a running faro-backend serves (the server's own store does the update,
    /// version and soft delete).
    static func apply(_ path: String, to database: String) throws {
        let r = try ChildProcess.run(
            Paths.executable("faro-backend"), ["--database", database, "--load", path, "--load-only"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Every live row of `table` on the backend, as places (read with `$skip` until an empty page: a server with
    /// short pages sends no `Link` header).
    static func serverPlaces(_ backend: BackendProcess, table: String) throws -> [CatalogPlace] {
        let client = try TablesClient(configuration: try backend.configuration())
        var rows: [JSONValue] = []
        for _ in 0..<10_000 {
            let page = try client.list(table: table, query: "$orderby=id&$top=1000&$skip=\(rows.count)").rows
            if page.isEmpty { break }
            rows += page
        }
        return rows.compactMap {
            if case .upsert(let place) = CatalogPulledRow.read($0).change { return place } else { return nil }
        }.sorted { $0.id < $1.id }
    }
}

@Suite(.serialized) struct CatalogSyncTests {
    /// Outside the demo's `beacons` table, so the counts are the fixture's alone.
    let table = "catalogo"

    func sync(_ backend: BackendProcess, database: FaroDatabase) throws -> CatalogSync {
        var configuration = try backend.configuration()
        configuration.tables.catalog = table
        return CatalogSync(database: database, client: try TablesClient(configuration: configuration))
    }

    func local(_ database: FaroDatabase, _ sync: CatalogSync) throws -> [CatalogPlace] {
        try database.catalog.places(source: sync.source).sorted { $0.id < $1.id }
    }

    @Test func tenThousandRowsThenOnlyWhatChanged() throws {
        let dir = try TemporaryDirectory("faro-sync")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 10_000), to: dir.file("rows.json"))
        let backend = try BackendProcess(["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")])
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try sync(backend, database: db)

        let first = try sync.run()
        #expect(first.added == 10_000 && first.updated == 0 && first.deleted == 0 && first.rows == 10_000)
        #expect(first.pages == 201)  // 200 pages of 50, then the empty page that ends the pull
        #expect(try local(db, sync) == CatalogFixture.serverPlaces(backend, table: table))

        // Between pulls: 500 rows change and 50 are deleted, all stamped with one updatedAt by the server (550
        // rows sharing a timestamp across 11 pages).
        let changed = stride(from: 3, to: 10_000, by: 20).map { i -> JSONValue in
            .object([("id", .string(String(cFormat: "b%05ld", i))), ("titulo", .string("Nuevo título \(i)"))])
        }
        let deleted = stride(from: 7, to: 10_000, by: 200).map { i -> JSONValue in
            .object([("id", .string(String(cFormat: "b%05ld", i))), ("deleted", .bool(true))])
        }
        #expect(changed.count == 500 && deleted.count == 50)
        try CatalogFixture.write(table, changed + deleted, to: dir.file("changes.json"))
        try CatalogFixture.apply(dir.file("changes.json"), to: dir.file("backend.sqlite3"))

        let second = try sync.run()
        #expect(second.updated == 500 && second.deleted == 50 && second.added == 0)
        #expect(second.rows == 550 && second.pages == 12)
        #expect(second.bytes * 10 < first.bytes)  // what changed, not the catalog again
        let server = try CatalogFixture.serverPlaces(backend, table: table)
        #expect(server.count == 9_950)
        #expect(try local(db, sync) == server)

        // The delta token survives a restart: a new connection and client ask only for what is new (nothing).
        let reopened = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let third = try self.sync(backend, database: reopened).run()
        #expect(third.rows == 0 && third.pages == 1 && third.bytes == 2)
    }

    @Test(arguments: [["--ignore-top"], ["--page-cap", "17"]])
    func aServerThatIgnoresTopOrShortensPagesLosesNothing(_ fault: [String]) throws {
        let count = fault == ["--ignore-top"] ? 10_000 : 2_000
        let dir = try TemporaryDirectory("faro-sync")
        try CatalogFixture.write(
            table, CatalogFixture.rows(count: count, group: 41, tail: 60), to: dir.file("rows.json"))
        let backend = try BackendProcess(
            ["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")] + fault)
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try sync(backend, database: db)
        let report = try sync.run()
        #expect(report.added == count)
        #expect(report.pages == (fault == ["--ignore-top"] ? 2 : (count + 16) / 17 + 1))
        let server = try CatalogFixture.serverPlaces(backend, table: table)
        let mine = try local(db, sync)
        #expect(mine.count == server.count && server.count == count)
        #expect(mine == server, "first difference: \(zip(mine, server).first { $0 != $1 }.map { "\($0)" } ?? "none")")
        #expect(try sync.run().rows == 0)
    }

    /// A backend that answers 503 to one request in four: each pull that stops keeps the pages it stored, the next
    /// one starts where it stopped, and the local catalog ends equal to the server's with no page pulled twice.
    @Test func aFlakyBackendLosesNothingAndNothingIsPulledTwice() throws {
        let dir = try TemporaryDirectory("faro-sync")
        let rows = CatalogFixture.rows(count: 2_000, group: 41, tail: 60)
        try CatalogFixture.write(table, rows, to: dir.file("rows.json"))
        let backend = try BackendProcess(
            [
                "--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json"), "--fail-rate", "0.25",
                "--fail-status", "503", "--seed", "21",
            ])
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try sync(backend, database: db)
        var stops = 0
        var stored = 0
        var finished: CatalogPullReport?
        for _ in 0..<200 where finished == nil {
            do {
                finished = try sync.run()
            } catch {
                guard case .unreachable = error else {
                    Issue.record("a 503 must mean unreachable, not \(error)")
                    return
                }
                stops += 1
                let now = try db.catalog.count(source: sync.source)
                #expect(now >= stored, "a stopped pull lost rows it had stored")
                #expect(now % 50 == 0, "pages are stored whole")
                stored = now
            }
        }
        let last = try #require(finished)
        #expect(stops > 0, "the backend never failed: the test proves nothing")
        // The successful pull fetched only what the stopped ones had not stored.
        #expect(last.added == 2_000 - stored && last.rows == 2_000 - stored)
        // The fixture's rows as places (the flaky backend cannot be listed reliably to compare with).
        let expected = rows.compactMap { row -> CatalogPlace? in
            if case .upsert(let place) = CatalogPulledRow.read(row).change { return place } else { return nil }
        }
        #expect(try local(db, sync) == expected.sorted { $0.id < $1.id })
    }

    /// A pull whose database is locked by another process stops with the store's error once the request in flight
    /// is answered, and the same sync pulls everything once the lock is gone.
    @Test func aLockedDatabaseStopsThePullCleanly() throws {
        let dir = try TemporaryDirectory("faro-sync")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 500), to: dir.file("rows.json"))
        let backend = try BackendProcess(["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")])
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"), busyTimeoutMilliseconds: 50)
        let sync = try sync(backend, database: db)
        let other = try SQLiteConnection(path: dir.file("faro.sqlite3"))
        try other.execute("BEGIN IMMEDIATE")
        #expect(throws: CatalogSyncError.store(.locked(path: dir.file("faro.sqlite3")))) { try sync.run() }
        try other.execute("ROLLBACK")
        let report = try sync.run()
        #expect(report.added == 500 && report.pages == 11)
        #expect(try local(db, sync) == CatalogFixture.serverPlaces(backend, table: table))
    }

    @Test func whereListingIsRefusedBeaconsAreLookedUpByMajorAndMinor() throws {
        let backend = try BackendProcess(["--refuse-listing", "beacons"])
        let dir = try TemporaryDirectory("faro-sync")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = CatalogSync(database: db, client: try TablesClient(configuration: try backend.configuration()))
        #expect(throws: CatalogSyncError.listingRefused(status: 403)) { try sync.run() }
        #expect(sync.pull() == .listingRefused(status: 403))
        let cafe = BeaconIdentity(uuid: try #require(BeaconUUID(CatalogFixture.uuid)), major: 100, minor: 1)
        let stranger = BeaconIdentity(uuid: cafe.uuid, major: 7, minor: 42)
        #expect(sync.lookUp([cafe, stranger]) == .lookedUp(found: [cafe], missing: [stranger]))
        #expect(sync.localPlaces().map(\.cliente) == ["Café La Parroquia"])
    }

    @Test func failuresSayWhatToDo() throws {
        let keyed = try BackendProcess(["--app-key", "sekret"])
        let dir = try TemporaryDirectory("faro-sync")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let refused = CatalogSync(database: db, client: try TablesClient(configuration: try keyed.configuration()))
        guard case .keyRefused(let reason) = refused.pull() else {
            Issue.record("401 must mean the app key was refused")
            return
        }
        #expect(reason.contains("app key") && reason.contains("401"))
        var missing = try keyed.configuration()
        missing.appKey = "sekret"
        missing.tables.catalog = "no-such-table"
        let noTable = CatalogSync(database: db, client: try TablesClient(configuration: missing))
        #expect(noTable.pull() == .misconfigured("table no-such-table not found on the backend (HTTP 404)"))
        let port: Int
        do { port = try BackendProcess().port }
        let gone = CatalogSync(
            database: db,
            client: try TablesClient(configuration: try BackendConfiguration(baseURL: "http://127.0.0.1:\(port)")))
        guard case .unreachable(let why) = gone.pull() else {
            Issue.record("a closed port must be unreachable")
            return
        }
        #expect(why.contains("cannot reach the backend"))
    }
}
