import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@Suite struct DatabaseTests {
    @Test func newDatabaseIsPrivateWALAndAtTheLatestVersion() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(try db.connection.query("PRAGMA journal_mode").first?.first?.text == "wal")
        #expect(try db.connection.integerPragma("user_version") == Migrations.latestVersion)
        _ = dir
    }

    @Test func defaultPathFollowsXDG() {
        #expect(
            FaroDatabase.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"])
                == "/x/data/faro/faro.sqlite3")
        #expect(
            FaroDatabase.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])
                == "/h/.local/share/faro/faro.sqlite3")
        #expect(FaroDatabase.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/faro/faro.sqlite3")
    }

    /// Builds a database at `version` holding one row in every table that version has.
    func makeDatabase(at version: Int, path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        try Migrations.migrate(connection, to: version)
        if version >= 1 {
            try connection.query("INSERT INTO settings (key, value) VALUES ('backend.url', 'https://b.example')")
            try connection.query("INSERT INTO contact_profile VALUES (1, 'Ana', 'ana@e.mx', '5512345678', 'ACME', 1)")
            // The per-lookup cache existed from version 1 to 3 (version 4 dropped it).
            if version < 4 {
                try connection.query(
                    "INSERT INTO catalog_cache VALUES (100, 1, '', 'b1', 'Café', 'Menú', 'http://x/', 1)")
            }
        }
        if version >= 2 {
            try connection.query(
                "INSERT INTO saved_pages (url, title, business, saved_at, mht) VALUES ('u', 't', 'b', 5, x'0102')")
            try connection.query("INSERT INTO site_state (url, contact_sent_at) VALUES ('u', 7)")
        }
        if version == 4 {
            // A synced place from before places kept their row's version.
            try connection.query(
                "INSERT INTO catalog_sync (id, source, cursor_updated_at, cursor_id) VALUES (1, 's', 't', 'b1')")
            try connection.query(
                "INSERT INTO catalog_places VALUES (1, 'b1', '', 100, 1, 'Café', 'Menú', 'http://x/', '2026-01-01T00:00:00.5Z')"
            )
        }
        if version == 3 {
            // Rows queued before rows recorded their backend and site.
            try connection.query(
                "INSERT INTO outbox (id, table_name, body, next_attempt_at, created_at, updated_at) VALUES "
                    + "('old-rate', 'rateme', '{\"id\":\"old-rate\",\"cliente\":\"Café\",\"titulo\":\"Menú\"}', 1, 3, 3), "
                    + "('old-reg', 'interested', '{\"id\":\"old-reg\",\"nombre\":\"N\"}', 1, 4, 4), "
                    + "('old-bad', 'rateme', 'not json', 1, 5, 5)")
        }
        if version == 6 {
            // A refused row from before reasons were stored as values: only its English text says why.
            try connection.query(
                "INSERT INTO outbox (id, table_name, body, state, attempts, next_attempt_at, last_error, created_at, "
                    + "updated_at, queued_at) VALUES ('old-refused', 'rateme', '{\"id\":\"old-refused\"}', 'failed', 1, "
                    + "1, 'HTTP 400: bad', 3, 3, 3)")
        }
        #expect(try connection.integerPragma("user_version") == version)
    }

    @Test(arguments: Array(0..<Migrations.latestVersion))
    func upgradesFromEveryEarlierVersionKeepingData(from version: Int) throws {
        let (dir, path) = try freshDatabasePath()
        try makeDatabase(at: version, path: path)
        let db = try FaroDatabase(path: path)
        #expect(try db.connection.integerPragma("user_version") == Migrations.latestVersion)
        if version >= 1 {
            #expect(try db.settings.value("backend.url") == "https://b.example")
            #expect(try db.contactProfile.load()?.empresa == "ACME")
            // The old per-lookup cache belonged to no backend in particular: it is dropped, the first sync fills
            // the synced catalog instead.
            #expect(try db.connection.query("SELECT name FROM sqlite_master WHERE name = 'catalog_cache'").isEmpty)
        }
        if version >= 2 {
            #expect(try db.savedPages.archive(id: 1) == [1, 2])
            #expect(try db.siteState.state(url: "u").contactSentAt == 7)
        }
        if version == 6 {
            // The old text stays for the terminal; the window has no reason value to word and says only where the
            // row stands.
            let refused = try #require(try db.outbox.row(id: "old-refused"))
            #expect(refused.state == .failed && refused.lastError == "HTTP 400: bad" && refused.reason == nil)
        }
        if version == 3 {
            // Old rows keep their place, go to whichever backend delivers them, and rows about a site keep their
            // order from the site named in their body.
            let rate = try #require(try db.outbox.row(id: "old-rate"))
            #expect(rate.backend == nil && rate.queuedAt == 3)
            #expect(rate.orderKey == OutboxSubmission.orderKey(cliente: "Café", titulo: "Menú"))
            #expect(try db.outbox.row(id: "old-reg")?.orderKey == nil)
            #expect(try db.outbox.row(id: "old-bad")?.orderKey == nil)
            #expect(
                try db.outbox.due(backend: "https://b", now: 10, limit: 10).map(\.id) == [
                    "old-rate", "old-reg", "old-bad",
                ])
        }
        if version == 4 {
            let place = try #require(try db.catalog.places(source: "s").first)
            #expect(place.cliente == "Café" && place.version == "" && place.updatedAt == "2026-01-01T00:00:00.5Z")
        }
        try db.catalog.setGeneration(.v3, baseURL: "https://b.example", now: 1)
        #expect(try db.catalog.generation(baseURL: "https://b.example") == .v3)
        // Every table of the latest schema works after the upgrade.
        try db.outbox.enqueue(.interested(try registration(1)), id: "id-1", now: 10)
        try db.savedPages.save(url: "v", title: "T", business: "B", mht: [9], now: 11)
        try db.siteState.markRated(url: "v", rating: 3, at: 12)
        #expect(try db.outbox.counts().pending == (version == 3 ? 4 : 1))
        #expect(try db.siteState.state(url: "v").rating == 3)
        try db.mutedPlaces.mute(MutedPlace(key: "row-1", business: "Café", title: "Menú", mutedAt: 13))
        #expect(try db.mutedPlaces.contains(key: "row-1"))
        _ = dir
    }

    @Test func aNewerDatabaseIsRefusedAndLeftAlone() throws {
        let (dir, path) = try freshDatabasePath()
        _ = try FaroDatabase(path: path)
        do {
            let c = try SQLiteConnection(path: path)
            try c.execute("PRAGMA user_version = 99")
        }
        #expect(throws: StoreError.newerSchema(path: path, found: 99, supported: Migrations.latestVersion)) {
            _ = try FaroDatabase(path: path)
        }
        let c = try SQLiteConnection(path: path)
        #expect(try c.integerPragma("user_version") == 99)
        _ = dir
    }

    @Test func aCorruptFileGivesAClearErrorAndIsNotReset() throws {
        let (dir, path) = try freshDatabasePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        do {
            _ = try FaroDatabase(path: path)
            Issue.record("a corrupt file must not open")
        } catch {
            guard case .corrupt = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            #expect(error.description.contains("move it aside"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        _ = dir
    }

    @Test func aDamagedPageIsReportedAsCorrupt() throws {
        let (dir, path) = try freshDatabasePath()
        do {
            let db = try FaroDatabase(path: path)
            for i in 0..<200 { try db.outbox.enqueue(.interested(try registration(i)), id: "r\(i)", now: 1) }
            try db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // Overwrite the middle of the file (past the header page) with garbage.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096)
        handle.write(Data(repeating: 0xA5, count: 8192))
        try handle.close()
        do {
            let db = try FaroDatabase(path: path)
            _ = try db.outbox.list()
            _ = try db.connection.query("PRAGMA integrity_check")
            Issue.record("reading a damaged database must fail")
        } catch {
            guard case .corrupt = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
        }
        _ = dir
    }

    @Test func aLockedDatabaseGivesLockedNotACrash() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path, busyTimeoutMilliseconds: 100)
        let other = try SQLiteConnection(path: path)
        try other.execute("BEGIN IMMEDIATE")
        #expect(throws: StoreError.locked(path: path)) {
            try db.outbox.enqueue(.interested(try registration(1)), id: "a", now: 1)
        }
        try other.execute("ROLLBACK")
        try db.outbox.enqueue(.interested(try registration(1)), id: "a", now: 1)
        #expect(try db.outbox.counts().pending == 1)
        _ = dir
    }

    @Test func aReadOnlyDatabaseRefusesWritesClearly() throws {
        let (dir, path) = try freshDatabasePath()
        do { try FaroDatabase(path: path).outbox.enqueue(.interested(try registration(1)), id: "a", now: 1) }
        let db = try FaroDatabase(path: path, mode: .readOnly)
        #expect(try db.outbox.counts().pending == 1)
        let second = try registration(2)
        do {
            try db.outbox.enqueue(.interested(second), id: "b", now: 2)
            Issue.record("a read-only database must refuse writes")
        } catch {
            #expect(error == .readOnly(path: path))
            #expect(error.problem == .readOnly)
            #expect(error.description.contains("read-only"))
        }
        _ = dir
    }

    /// Each failure has its problem, the value the layers above pass up for the window to word.
    @Test func eachFailureGivesItsProblem() {
        let failures: [(StoreError, StorageProblem)] = [
            (.cannotOpen(path: "p", reason: "r"), .cannotOpen), (.corrupt(path: "p", detail: "d"), .damaged),
            (.locked(path: "p"), .locked), (.readOnly(path: "p"), .readOnly), (.diskFull(path: "p"), .diskFull),
            (.newerSchema(path: "p", found: 9, supported: 8), .newerVersion),
            (.failed(path: "p", operation: "o", code: 1, message: "m"), .other),
        ]
        for (error, problem) in failures { #expect(error.problem == problem, "\(error)") }
    }

    @Test func aMissingFolderThatCannotBeCreatedIsReported() throws {
        let dir = try TemporaryDirectory("faro-store")
        try Data("file".utf8).write(to: URL(fileURLWithPath: dir.file("blocker")))
        do {
            _ = try FaroDatabase(path: dir.file("blocker/faro/faro.sqlite3"))
            Issue.record("opening under a regular file must fail")
        } catch {
            guard case .cannotOpen = error else {
                Issue.record("expected .cannotOpen, got \(error)")
                return
            }
        }
    }
}
