import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@Suite struct OutboxRepositoryTests {
    @Test func rowsAreDeliveredInOrderPerTable() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        let site = SiteIdentity(cliente: "C", titulo: "T", url: "http://s/")
        for i in 0..<3 { try db.outbox.enqueue(.interested(try registration(i)), id: "i\(i)", now: Double(i)) }
        try db.outbox.enqueue(
            .rateme(SiteRating(site: site, imei: "x", calificacion: 5, fechahora: "f")), id: "r0", now: 5)
        #expect(try db.outbox.pendingHeads().map(\.id) == ["i0", "r0"])
        var random = SplitMix64(seed: 1)
        // A retry keeps the head in place: order per table holds.
        let retry = OutboxTransition.after(
            .retry(reason: .serverTrouble(status: 503, message: "")), previousAttempts: 0, now: 10,
            schedule: .background, random: &random)
        #expect(try db.outbox.apply(retry, toRow: 1, now: 10))
        #expect(try db.outbox.pendingHeads().map(\.id) == ["i0", "r0"])
        #expect(try db.outbox.row(id: "i0")?.attempts == 1)
        #expect(try db.outbox.row(id: "i0")?.lastError == "HTTP 503")
        #expect(try db.outbox.row(id: "i0")?.entry.reason == .serverTrouble(status: 503, message: ""))
        let done = OutboxTransition.after(
            .delivered, previousAttempts: 1, now: 11, schedule: .background, random: &random)
        #expect(try db.outbox.apply(done, toRow: 1, now: 11))
        #expect(try db.outbox.pendingHeads().map(\.id) == ["i1", "r0"])
        // A late result for a settled row changes nothing.
        #expect(try !db.outbox.apply(retry, toRow: 1, now: 12))
        #expect(try db.outbox.row(id: "i0")?.state == .delivered)
        _ = dir
    }

    @Test func failedRowsAreKeptCountedAndRetriable() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        try db.outbox.enqueue(.interested(try registration(1)), id: "a", now: 1)
        try db.outbox.enqueue(.interested(try registration(2)), id: "b", now: 1)
        var random = SplitMix64(seed: 1)
        let refused = OutboxTransition.after(
            .rejected(reason: .refused(status: 400, message: "bad")), previousAttempts: 0, now: 2,
            schedule: .background, random: &random)
        try db.outbox.apply(refused, toRow: 1, now: 2)
        #expect(try db.outbox.counts() == OutboxCounts(pending: 1, failed: 1, delivered: 0))
        #expect(try db.outbox.list(states: [.failed]).first?.lastError == "HTTP 400: bad")
        #expect(try db.outbox.pendingHeads().map(\.id) == ["b"])
        #expect(try db.outbox.retryNow(now: 3, includingFailed: true) == 2)
        #expect(try db.outbox.counts() == OutboxCounts(pending: 2, failed: 0, delivered: 0))
        #expect(try db.outbox.pendingHeads().first?.nextAttemptAt == 3)
        _ = dir
    }

    @Test func bodiesAndParametersAreStoredVerbatim() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        let nasty = try BusinessRegistration.validate(
            nombre: "Robert'); DROP TABLE outbox;--", email: "a@b.mx",
            telefono: "5512345678"
        ).get()
        let row = try db.outbox.enqueue(.interested(nasty), id: "x'y", now: 1)
        #expect(try db.outbox.row(id: "x'y") == row)
        #expect(row.body.contains("DROP TABLE"))
        #expect(throws: StoreError.self) { try db.outbox.enqueue(.interested(nasty), id: "x'y", now: 2) }
        #expect(try db.outbox.counts().pending == 1)
        _ = dir
    }

    @Test func contactRequestAndSiteFlagCommitTogether() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        let site = SiteIdentity(cliente: "C", titulo: "T", url: "http://s/")
        let contact = try ContactDetails.validate(nombre: "A", email: "a@b.mx", telefono: "5512345678", empresa: "")
            .get()
        try db.outbox.enqueue(
            .contactame(ContactRequest(site: site, contact: contact, comentario: "", fechahora: "f")),
            id: "c1", now: 4, marking: .contactSent(url: site.url))
        #expect(try db.siteState.state(url: site.url).contactSentAt == 4)
        // The same id again fails, and the flag of another site is not set either: all or nothing.
        #expect(throws: StoreError.self) {
            try db.outbox.enqueue(
                .rateme(SiteRating(site: site, imei: "i", calificacion: 2, fechahora: "f")), id: "c1", now: 5,
                marking: .rated(url: "http://other/", rating: 2))
        }
        #expect(try db.siteState.state(url: "http://other/").rating == nil)
        _ = dir
    }
}

@Suite struct LocalDataRepositoryTests {
    @Test func profileCatalogPagesAndSettingsRoundTrip() throws {
        let (dir, path) = try freshDatabasePath()
        let db = try FaroDatabase(path: path)
        #expect(try db.contactProfile.load() == nil)
        let details = try ContactDetails.validate(
            nombre: "Ana", email: "ana@e.mx", telefono: "55 1234 5678",
            empresa: "ACME"
        ).get()
        try db.contactProfile.save(details, now: 1)
        #expect(try db.contactProfile.load() == details)

        let uuid = try #require(BeaconUUID("FA20DE30-0B1E-4C5A-9B5E-D3A0BE0C0DE1"))
        let place = CatalogPlace(
            identity: BeaconIdentity(uuid: uuid, major: 100, minor: 1), cliente: "Café", titulo: "Menú",
            url: "http://x/", id: "b1")
        try db.catalog.storeLookup(major: 100, minor: 1, places: [place], source: "s")
        #expect(try db.catalog.place(source: "s", for: place.identity)?.id == "b1")
        let other = BeaconIdentity(uuid: BeaconUUID(high: 0, low: 0), major: 100, minor: 1)
        #expect(try db.catalog.place(source: "s", for: other) == nil)
        #expect(try db.catalog.place(source: "another", for: place.identity) == nil)

        let a = try db.savedPages.save(url: "http://a/", title: "A", business: "BA", mht: Array("MIME".utf8), now: 5)
        try db.savedPages.save(url: "http://b/", title: "B", business: "BB", mht: [0, 255], now: 6)
        #expect(try db.savedPages.list().map(\.title) == ["B", "A"])
        #expect(try db.savedPages.archive(id: a) == Array("MIME".utf8))
        try db.savedPages.delete(id: a)
        #expect(try db.savedPages.archive(id: a) == nil)

        try db.settings.set("backend.url", "https://x")
        #expect(try db.settings.value("backend.url") == "https://x")
        try db.settings.set("backend.url", nil)
        #expect(try db.settings.value("backend.url") == nil)
        _ = dir
    }
}
