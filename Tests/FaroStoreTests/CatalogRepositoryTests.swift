import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@Suite struct CatalogRepositoryTests {
    let uuid = BeaconUUID(high: 0xFA20, low: 7)

    func place(_ id: String, minor: UInt16, _ name: String, at stamp: String = "2026-01-01T00:00:00.000Z")
        -> CatalogPlace
    {
        CatalogPlace(
            identity: BeaconIdentity(uuid: uuid, major: 100, minor: minor), cliente: name, titulo: "t", url: "u",
            id: id, updatedAt: stamp)
    }

    @Test func pagesAreAppliedWithTheirDeltaTokenWhichSurvivesARestart() throws {
        let (dir, path) = try freshDatabasePath()
        do {
            let db = try FaroDatabase(path: path)
            #expect(try db.catalog.cursor(source: "a") == nil)
            let first = try db.catalog.apply(
                [.upsert(place("1", minor: 1, "Uno")), .upsert(place("2", minor: 2, "Dos")), .delete(id: "9")],
                cursor: CatalogCursor(updatedAt: "2026-01-01T00:00:00.000Z", id: "2"), source: "a")
            #expect(first.added == 2 && first.updated == 0 && first.deleted == 0)
            let second = try db.catalog.apply(
                [
                    .upsert(place("1", minor: 1, "Uno bis", at: "2026-01-02T00:00:00.000Z")), .delete(id: "2"),
                    .skip(id: "x", reason: "row x: no cliente"),
                ],
                cursor: CatalogCursor(updatedAt: "2026-01-02T00:00:00.000Z", id: "x"), source: "a", finishedAt: 77)
            #expect(second.added == 0 && second.updated == 1 && second.deleted == 1 && second.skipped == 1)
            #expect(second.skippedReason == "row x: no cliente")
        }
        // A new connection (the app restarted): the catalog and where the pull ended are still there.
        let db = try FaroDatabase(path: path)
        #expect(try db.catalog.cursor(source: "a") == CatalogCursor(updatedAt: "2026-01-02T00:00:00.000Z", id: "x"))
        #expect(try db.catalog.pulledAt(source: "a") == 77)
        #expect(try db.catalog.places(source: "a").map(\.cliente) == ["Uno bis"])
        #expect(
            try db.catalog.place(source: "a", for: place("1", minor: 1, "").identity)?.updatedAt
                == "2026-01-02T00:00:00.000Z")
        #expect(try db.catalog.places(source: "b").isEmpty && db.catalog.cursor(source: "b") == nil)
        try db.catalog.reset(source: "a")
        #expect(try db.catalog.count(source: "a") == 0 && db.catalog.cursor(source: "a") == nil)
        _ = dir
    }

    /// A second read again (or a page asked for twice) changes nothing for rows held at the same version.
    @Test func rowsReadAgainAtTheVersionHeldAreNotChanges() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        var one = place("1", minor: 1, "Uno", at: "2026-01-01T00:00:00Z")
        one.version = "AAAA"
        let cursor = CatalogCursor(updatedAt: "2026-01-01T00:00:00Z", id: "1")
        #expect(try db.catalog.apply([.upsert(one)], cursor: cursor, source: "a").added == 1)
        #expect(try db.catalog.apply([.upsert(one)], cursor: cursor, source: "a").updated == 0)
        one.version = "AAAB"
        one.titulo = "Cambiado en el mismo segundo"
        #expect(try db.catalog.apply([.upsert(one)], cursor: cursor, source: "a").updated == 1)
        #expect(try db.catalog.places(source: "a") == [one])
        _ = dir
    }

    /// The generation a backend speaks is remembered per base URL and learned again when it changes.
    @Test func theGenerationIsRememberedPerBackend() throws {
        let (dir, path) = try freshDatabasePath()
        do {
            let db = try FaroDatabase(path: path)
            #expect(try db.catalog.generation(baseURL: "https://a.example") == nil)
            try db.catalog.setGeneration(.v3, baseURL: "https://a.example", now: 1)
            try db.catalog.setGeneration(.v2, baseURL: "https://b.example", now: 1)
        }
        let db = try FaroDatabase(path: path)
        #expect(try db.catalog.generation(baseURL: "https://a.example") == .v3)
        try db.catalog.setGeneration(.v2, baseURL: "https://a.example", now: 2)
        #expect(try db.catalog.generation(baseURL: "https://a.example") == .v2)
        #expect(try db.catalog.generation(baseURL: "https://b.example") == .v2)
        _ = dir
    }

    @Test func aPageThatFailsLeavesTheCatalogAndTheTokenAsTheyWere() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path, busyTimeoutMilliseconds: 50)
        try db.catalog.apply(
            [.upsert(place("1", minor: 1, "Uno"))], cursor: CatalogCursor(updatedAt: "t1", id: "1"), source: "a")
        let other = try SQLiteConnection(path: path)
        try other.execute("BEGIN IMMEDIATE")
        #expect(throws: StoreError.locked(path: path)) {
            try db.catalog.apply(
                [.upsert(place("2", minor: 2, "Dos"))], cursor: CatalogCursor(updatedAt: "t2", id: "2"), source: "a")
        }
        try other.execute("ROLLBACK")
        #expect(try db.catalog.count(source: "a") == 1 && db.catalog.cursor(source: "a")?.id == "1")
        _ = dir
    }

    @Test func aLookupReplacesThePlacesOfItsMajorAndMinorOnly() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        try db.catalog.apply(
            [.upsert(place("1", minor: 1, "Uno")), .upsert(place("2", minor: 2, "Dos"))], cursor: nil, source: "a")
        let anyUUID = CatalogPlace(
            identity: BeaconIdentity(uuid: CatalogPlace.unspecifiedUUID, major: 100, minor: 1), cliente: "Otro",
            titulo: "t", url: "u", id: "3", anyUUID: true)
        try db.catalog.storeLookup(major: 100, minor: 1, places: [anyUUID], source: "a")
        #expect(try db.catalog.places(source: "a").map(\.id).sorted() == ["2", "3"])
        let stranger = BeaconIdentity(uuid: BeaconUUID(high: 9, low: 9), major: 100, minor: 1)
        #expect(try db.catalog.place(source: "a", for: stranger)?.identity == stranger)
        #expect(try db.catalog.cursor(source: "a") == nil)
        _ = dir
    }
}

@Suite struct OutboxOrderAndBackendTests {
    func site(_ n: Int) -> SiteIdentity { SiteIdentity(cliente: "Cliente \(n)", titulo: "T", url: "http://s/\(n)") }

    func rate(_ n: Int) -> OutboxSubmission {
        .rateme(SiteRating(site: site(n), imei: "i", calificacion: 3, fechahora: "f"))
    }

    @Test func rowsAboutOneSiteWaitBehindTheirElderOthersDoNot() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        let a1 = try db.outbox.enqueue(rate(1), id: "a1", now: 0, backend: "B")
        try db.outbox.enqueue(rate(1), id: "a2", now: 0, backend: "B")
        try db.outbox.enqueue(rate(2), id: "b1", now: 0, backend: "B")
        try db.outbox.enqueue(.interested(try registration(1)), id: "r1", now: 0)
        #expect(try db.outbox.due(backend: "B", now: 1, limit: 10).map(\.id) == ["a1", "b1", "r1"])
        // a1 backs off: a2 still waits behind it; the others are not held back.
        var random = SplitMix64(seed: 1)
        let later = OutboxTransition.after(
            .retry(reason: .serverTrouble(status: 500, message: "")), previousAttempts: 0, now: 1,
            schedule: BackoffSchedule(base: 100, cap: 100),
            random: &random)
        try db.outbox.apply(later, toRow: a1.seq, now: 1, backend: "B")
        #expect(try db.outbox.due(backend: "B", now: 2, limit: 10).map(\.id) == ["b1", "r1"])
        #expect(try db.outbox.nextDue(backend: "B") == 0)
        // Once a1 is settled for good, a2 goes.
        try db.outbox.apply(
            OutboxTransition(state: .failed, attempts: 2, nextAttemptAt: 3, lastError: "HTTP 400"), toRow: a1.seq,
            now: 3)
        #expect(try db.outbox.due(backend: "B", now: 4, limit: 10).map(\.id) == ["a2", "b1", "r1"])
        _ = dir
    }

    @Test func rowsGoOnlyToTheirBackendAndCanBeMovedRetriedOrDiscarded() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        let old = try db.outbox.enqueue(rate(1), id: "old", now: 0, backend: "https://old")
        let unbound = try db.outbox.enqueue(rate(2), id: "unbound", now: 0)
        #expect(try db.outbox.due(backend: "https://new", now: 1, limit: 10).map(\.id) == ["unbound"])
        #expect(try db.outbox.queuedElsewhere(than: "https://new").map(\.id) == ["old"])
        #expect(try db.outbox.pendingCount(backend: "https://new") == 1)
        // Delivering an unbound row binds it to the backend that took it.
        try db.outbox.apply(
            OutboxTransition(state: .failed, attempts: 1, nextAttemptAt: 1, lastError: "HTTP 400: no"),
            toRow: unbound.seq,
            now: 1, backend: "https://new")
        #expect(try db.outbox.row(id: "unbound")?.backend == "https://new")
        // The user moves the old backend's row here, and retries the refused one.
        #expect(try db.outbox.move(id: old.id, to: "https://new", now: 2))
        #expect(try db.outbox.queuedElsewhere(than: "https://new").isEmpty)
        #expect(try db.outbox.retry(id: "unbound", now: 3))
        let retried = try #require(try db.outbox.row(id: "unbound"))
        #expect(
            retried.state == .pending && retried.attempts == 0 && retried.queuedAt == 3
                && retried.lastError == "HTTP 400: no")
        #expect(try !db.outbox.retry(id: "nope", now: 3))
        // Discarding is the only way a row leaves, and delivered rows stay as history.
        try db.outbox.apply(
            OutboxTransition(state: .delivered, attempts: 1, nextAttemptAt: 4, lastError: nil), toRow: old.seq, now: 4)
        #expect(try !db.outbox.discard(id: "old"))
        #expect(try db.outbox.discard(id: "unbound"))
        #expect(try db.outbox.counts() == OutboxCounts(pending: 0, failed: 0, delivered: 1))
        _ = dir
    }

    @Test func thePanelsQueueSpeaksThePanelsErrors() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        try db.outbox.enqueue(rate(1), id: "x", now: 0, backend: "B")
        try db.outbox.enqueue(rate(2), id: "y", now: 0, backend: "A")
        let queue = StoredOutboxQueue(db.outbox)
        #expect(try queue.undelivered().map(\.id) == ["x", "y"])
        #expect(try queue.moveAll(to: "B", now: 1) == 1)
        #expect(try queue.retryAll(now: 2) == 2)
        #expect(try queue.discardAll() == 2)
        #expect(try queue.undelivered().isEmpty)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
        let readOnly = StoredOutboxQueue(try FaroDatabase(path: path, mode: .readOnly).outbox)
        do {
            _ = try readOnly.discardAll()
            Issue.record("a read-only database must refuse")
        } catch {
            #expect(error.kind == .readOnly)
            #expect(error.description.contains("read-only"))
        }
        _ = dir
    }
}
