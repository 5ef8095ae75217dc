import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

extension CatalogPlace {
    /// The place without its row version (to compare with rows written before the server gave them one).
    var unversioned: CatalogPlace {
        var copy = self
        copy.version = ""
        return copy
    }
}

/// Pages a full pull of `rows` rows takes: 2.0.0 pages of `min(pageSize, cap)` and the empty page that ends the
/// pull; 3.0.0 pages of the server's cap (100 unless `--page-cap`), each after the first starting with the last row
/// of the one before.
func expectedPages(rows: Int, generation: Int, cap: Int? = nil, pageSize: Int = 50) -> Int {
    if generation == 2 {
        let size = min(pageSize, cap ?? pageSize)
        return (rows + size - 1) / size + 1
    }
    let size = cap ?? 100
    return rows <= size ? 1 : 1 + (rows - size + size - 2) / (size - 1)
}

/// A catalog for faro-backend's `--load`: rows of table `table`, in groups that share one `updatedAt` (so groups
/// straddle page boundaries), with the last `tail` rows all sharing a single timestamp.
struct CatalogFixture {
    static let uuid = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"

    static func rows(count: Int, group: Int = 73, tail: Int = 120) -> [JSONValue] {
        (0..<count).map { i in
            let g = i >= count - tail ? count : i / group
            let stamp = String(cFormat: "2020-01-%02ldT%02ld:%02ld:00.250Z", 1 + g / 1440, (g / 60) % 24, g % 60)
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
        try apply(path, to: database, arguments: [])
    }

    /// The same, for a backend started with `arguments` that change how it stamps rows (`--timestamps seconds`).
    static func apply(_ path: String, to database: String, arguments: [String]) throws {
        let r = try ChildProcess.run(
            Paths.executable("faro-backend"), ["--database", database, "--load", path, "--load-only"] + arguments,
            timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Every live row of `table` on the backend, as places (read with `$skip` until an empty page: a server with
    /// short pages sends no `Link` header; either generation).
    static func serverPlaces(_ backend: BackendProcess, table: String) throws -> [CatalogPlace] {
        let client = try TablesClient(configuration: try backend.configuration())
        var rows: [JSONValue] = []
        for _ in 0..<10_000 {
            let page = try client.list(table: table, query: "$orderby=id&$top=1000&$skip=\(rows.count)").rows
                .filter { $0["deleted"] != .bool(true) }
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

    /// A client speaking `generation` (fixed: the page counts are the generation's own; `auto` has tests of its own).
    func sync(
        _ backend: BackendProcess, database: FaroDatabase, generation: Int,
        settings: CatalogSyncSettings = CatalogSyncSettings()
    ) throws -> CatalogSync {
        var configuration = try backend.configuration()
        configuration.tables.catalog = table
        configuration.backendProtocol = .fixed(try #require(BackendProtocol(rawValue: generation)))
        return CatalogSync(
            database: database, client: try TablesClient(configuration: configuration), settings: settings)
    }

    func local(_ database: FaroDatabase, _ sync: CatalogSync) throws -> [CatalogPlace] {
        try database.catalog.places(source: sync.source).sorted { $0.id < $1.id }
    }

    func backend(_ generation: Int, _ arguments: [String]) throws -> BackendProcess {
        try BackendProcess(arguments + ["--protocol", String(generation)])
    }

    @Test(arguments: [2, 3]) func tenThousandRowsThenOnlyWhatChanged(_ generation: Int) throws {
        let dir = try TemporaryDirectory("faro-sync")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 10_000), to: dir.file("rows.json"))
        let backend = try backend(
            generation, ["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")])
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try sync(backend, database: db, generation: generation)

        let first = try sync.run()
        #expect(first.added == 10_000 && first.updated == 0 && first.deleted == 0)
        #expect(first.pages == expectedPages(rows: 10_000, generation: generation))
        #expect(first.rows == 10_000 + (generation == 3 ? first.pages - 1 : 0))  // 3.0.0: the overlap rows
        #expect(first.generation?.rawValue == generation)
        #expect(try local(db, sync) == CatalogFixture.serverPlaces(backend, table: table))

        // Between pulls: 500 rows change and 50 are deleted, all stamped with one updatedAt by the server (550
        // rows sharing a timestamp across 11 pages of 50, or 6 of 100).
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
        #expect(second.pages == expectedPages(rows: 550, generation: generation))
        #expect(second.bytes * 10 < first.bytes)  // what changed, not the catalog again
        let server = try CatalogFixture.serverPlaces(backend, table: table)
        #expect(server.count == 9_950)
        #expect(try local(db, sync) == server)

        // Ten changes among the 10,000: about those ten rows, in at most two requests.
        let ten = (0..<10).map { i -> JSONValue in
            .object([("id", .string(String(cFormat: "b%05ld", 1000 * i + 1))), ("titulo", .string("Diez \(i)"))])
        }
        try CatalogFixture.write(table, ten, to: dir.file("ten.json"))
        try CatalogFixture.apply(dir.file("ten.json"), to: dir.file("backend.sqlite3"))
        let delta = try sync.run()
        #expect(delta.updated == 10 && delta.rows <= 50 && delta.pages <= 2, "\(delta)")

        // The delta token survives a restart: a new connection and client ask only for what is new (nothing).
        let reopened = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let third = try self.sync(backend, database: reopened, generation: generation).run()
        // (Two requests when the last change fell on a whole second, which is read again.)
        #expect(third.added + third.updated + third.deleted == 0 && third.pages <= 2)
    }

    @Test(arguments: [2, 3], [["--ignore-top"], ["--page-cap", "17"]])
    func aServerThatIgnoresTopOrShortensPagesLosesNothing(_ generation: Int, _ fault: [String]) throws {
        let count = fault == ["--ignore-top"] ? 10_000 : 2_000
        let dir = try TemporaryDirectory("faro-sync")
        try CatalogFixture.write(
            table, CatalogFixture.rows(count: count, group: 41, tail: 60), to: dir.file("rows.json"))
        let backend = try backend(
            generation, ["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")] + fault)
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try sync(backend, database: db, generation: generation)
        let report = try sync.run()
        #expect(report.added == count)
        if fault == ["--ignore-top"] {
            #expect(report.pages == (generation == 2 ? 2 : 1))
        } else {
            #expect(report.pages == expectedPages(rows: count, generation: generation, cap: 17))
        }
        let server = try CatalogFixture.serverPlaces(backend, table: table)
        let mine = try local(db, sync)
        #expect(mine.count == server.count && server.count == count)
        #expect(mine == server, "first difference: \(zip(mine, server).first { $0 != $1 }.map { "\($0)" } ?? "none")")
        #expect(try sync.run().added == 0)
    }

    /// A backend that answers 503 to one request in four: each pull that stops keeps the pages it stored, the next
    /// one starts where it stopped, and the local catalog ends equal to the server's with no page pulled twice.
    @Test(arguments: [2, 3]) func aFlakyBackendLosesNothingAndNothingIsPulledTwice(_ generation: Int) throws {
        let dir = try TemporaryDirectory("faro-sync")
        let rows = CatalogFixture.rows(count: 2_000, group: 41, tail: 60)
        try CatalogFixture.write(table, rows, to: dir.file("rows.json"))
        let backend = try backend(
            generation,
            [
                "--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json"), "--fail-rate", "0.25",
                "--fail-status", "503", "--seed", "21",
            ])
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try sync(backend, database: db, generation: generation)
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
                if generation == 2 { #expect(now % 50 == 0, "pages are stored whole") }
                stored = now
            }
        }
        let last = try #require(finished)
        #expect(stops > 0, "the backend never failed: the test proves nothing")
        // The successful pull fetched only what the stopped ones had not stored.
        #expect(last.added == 2_000 - stored)
        // The fixture's rows as places (the flaky backend cannot be listed reliably to compare with).
        let expected = rows.compactMap { row -> CatalogPlace? in
            if case .upsert(let place) = CatalogPulledRow.read(row).change { return place } else { return nil }
        }
        // (The fixture's rows carry no version; the server gave each one.)
        #expect(try local(db, sync).map(\.unversioned) == expected.sorted { $0.id < $1.id })
    }

    /// Pulls of one page each (a pull stopped between every two pages), with rows updated, deleted and undeleted
    /// between them and one group of 300 rows sharing a millisecond: the catalog ends equal to the server's.
    @Test(arguments: [2, 3], ["ms", "seconds"])
    func pullsStoppedBetweenAnyTwoPagesWithDeletesAndUndeletes(_ generation: Int, _ timestamps: String) throws {
        let dir = try TemporaryDirectory("faro-sync")
        let stamps = ["--timestamps", timestamps]
        try CatalogFixture.write(
            table, CatalogFixture.rows(count: 1_500, group: 300, tail: 300), to: dir.file("rows.json"))
        let backend = try backend(
            generation,
            ["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json"), "--page-cap", "37"] + stamps)
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        var settings = CatalogSyncSettings()
        settings.maxPagesPerPull = 1
        let sync = try sync(backend, database: db, generation: generation, settings: settings)
        var pulls = 0
        var empty = 0
        while empty < 2, pulls < 400 {
            let report = try sync.run()
            pulls += 1
            empty = report.rows <= 1 ? empty + 1 : 0
            switch pulls {
            case 3:  // a row already pulled is deleted, another updated
                try CatalogFixture.write(
                    table,
                    [
                        .object([("id", .string("b00001")), ("deleted", .bool(true))]),
                        .object([("id", .string("b00002")), ("titulo", .string("Cambiado"))]),
                    ], to: dir.file("c1.json"))
                try CatalogFixture.apply(dir.file("c1.json"), to: dir.file("backend.sqlite3"), arguments: stamps)
            case 20:  // the deleted row comes back
                try CatalogFixture.write(
                    table, [.object([("id", .string("b00001")), ("deleted", .bool(false))])], to: dir.file("c2.json"))
                try CatalogFixture.apply(dir.file("c2.json"), to: dir.file("backend.sqlite3"), arguments: stamps)
            default: break
            }
        }
        #expect(pulls > 40, "one page per pull")
        let server = try CatalogFixture.serverPlaces(backend, table: table)
        #expect(server.count == 1_500)
        #expect(try local(db, sync) == server)
        #expect(try local(db, sync).first { $0.id == "b00002" }?.titulo == "Cambiado")

        // A row changed twice within one second, the second time after the pull had passed it: a pull that starts
        // on a whole second reads that second again.
        guard timestamps == "seconds" else { return }
        for (round, title) in ["Primero", "Segundo"].enumerated() {
            try CatalogFixture.write(
                table,
                [.object([("id", .string("b00003")), ("titulo", .string(title)), ("updatedAt", .string(later))])],
                to: dir.file("same-second-\(round).json"))
            try CatalogFixture.apply(
                dir.file("same-second-\(round).json"), to: dir.file("backend.sqlite3"), arguments: stamps)
            for _ in 0..<3 { _ = try sync.run() }
            #expect(try local(db, sync).first { $0.id == "b00003" }?.titulo == title)
        }
        #expect(try local(db, sync) == CatalogFixture.serverPlaces(backend, table: table))
    }

    /// A whole second after every stamp the tests write.
    let later = "2099-01-01T00:00:00Z"

    /// A pull whose database is locked by another process stops with the store's error once the request in flight
    /// is answered, and the same sync pulls everything once the lock is gone.
    @Test(arguments: [2, 3]) func aLockedDatabaseStopsThePullCleanly(_ generation: Int) throws {
        let dir = try TemporaryDirectory("faro-sync")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 500), to: dir.file("rows.json"))
        let backend = try backend(
            generation, ["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")])
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"), busyTimeoutMilliseconds: 50)
        let sync = try sync(backend, database: db, generation: generation)
        let other = try SQLiteConnection(path: dir.file("faro.sqlite3"))
        try other.execute("BEGIN IMMEDIATE")
        #expect(throws: CatalogSyncError.store(.locked(path: dir.file("faro.sqlite3")))) { try sync.run() }
        try other.execute("ROLLBACK")
        let report = try sync.run()
        #expect(report.added == 500 && report.pages == expectedPages(rows: 500, generation: generation))
        #expect(try local(db, sync) == CatalogFixture.serverPlaces(backend, table: table))
    }

    @Test(arguments: [2, 3]) func whereListingIsRefusedBeaconsAreLookedUpByMajorAndMinor(_ generation: Int) throws {
        let backend = try backend(generation, ["--refuse-listing", "beacons"])
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

    @Test(arguments: [2, 3]) func failuresSayWhatToDo(_ generation: Int) throws {
        let keyed = try backend(generation, ["--app-key", "sekret"])
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
