import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// Rows on the backend's table, in the order the backend stored them (following 2.0.0 `Link` headers and 3.0.0
/// `nextLink`s). Reads are retried (the backend may be injecting faults into them too).
func backendRows(_ backend: BackendProcess, table: String) throws -> [JSONValue] {
    let client = try TablesClient(configuration: try backend.configuration())
    func read(_ page: () throws -> TablesClient.ListPage) throws -> TablesClient.ListPage {
        var lastError: (any Error)?
        for _ in 0..<100 {
            do { return try page() } catch {
                lastError = error
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        throw lastError ?? TablesError.transport("no answer")
    }
    var page = try read { try client.list(table: table, query: "$top=1000") }
    var rows = page.rows
    var hops = 0
    while let next = try page.next
        ?? page.nextLink.map({ try CatalogNextLink.resolve($0, tableURL: client.tableURL(table)) }),
        hops < 100
    {
        page = try read { try client.list(url: next) }
        rows += page.rows
        hops += 1
    }
    return rows
}

func backendIDs(_ backend: BackendProcess, table: String) throws -> [String] {
    try backendRows(backend, table: table).compactMap { $0["id"]?.stringValue }
}

@Suite(.serialized) struct OutboxDelivererTests {
    func site(_ n: Int) -> SiteIdentity {
        SiteIdentity(cliente: "Cliente \(n)", titulo: "Título", url: "http://s/\(n)")
    }

    func rate(_ n: Int, _ stars: Int = 3) -> OutboxSubmission {
        .rateme(SiteRating(site: site(n), imei: "imei", calificacion: stars, fechahora: "2026-11-29T14:03:07.123Z"))
    }

    @Test(arguments: [2, 3]) func deliversEveryRowOnceAndInOrderPerSiteDespiteFaults(_ generation: Int) throws {
        let backend = try BackendProcess(
            generation: generation, ["--fail-rate", "0.3", "--drop-rate", "0.2", "--seed", "11"])
        let dir = try TemporaryDirectory("faro-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        var perSite: [String: [String]] = [:]
        var registrations: [String] = []
        let now = Date().timeIntervalSince1970
        for i in 0..<60 {
            if i % 6 == 5 {
                let r = try BusinessRegistration.validate(nombre: "N\(i)", email: "n@e.mx", telefono: "5512345678")
                    .get()
                registrations.append(try db.outbox.submit(.interested(r), now: now, backend: backend.url).id)
            } else {
                let row = try db.outbox.submit(rate(i % 5, i % 6), now: now, backend: backend.url)
                perSite[site(i % 5).cliente, default: []].append(row.id)
            }
        }
        let statuses = StatusLog()
        let deliverer = OutboxDeliverer(
            databasePath: path, configuration: try backend.configuration(generation: generation),
            schedule: BackoffSchedule(base: 0.02, cap: 0.2), onStatus: { statuses.add($0) })
        deliverer.start()
        let status = deliverer.waitUntilDrained(timeout: 60)
        deliverer.stop()
        #expect(status?.counts == OutboxCounts(pending: 0, failed: 0, delivered: 60))
        let rated = try backendRows(backend, table: "rateme")
        #expect(rated.count == 50)  // exactly once each: retries of rows already held answered 409
        for (cliente, ids) in perSite {
            let stored = rated.filter { $0["cliente"]?.stringValue == cliente }.compactMap { $0["id"]?.stringValue }
            #expect(stored == ids, "rows about \(cliente) keep their order")
        }
        #expect(Set(try backendIDs(backend, table: "interested")) == Set(registrations))
        #expect(statuses.count > 0)
        // Retries happened (the faults were real) and every row records its attempts.
        #expect(try db.outbox.list(states: [.delivered]).contains { $0.attempts > 1 })
    }

    @Test(arguments: [2, 3]) func aPoisonedRowEndsFailedWithItsReasonAndHoldsBackOnlyItsOwnSite(_ generation: Int)
        throws
    {
        let backend = try BackendProcess(generation: generation, ["--fail-body-containing", "VENENO"])
        let dir = try TemporaryDirectory("faro-outbox")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let contact = try ContactDetails.validate(nombre: "Ana", email: "a@b.mx", telefono: "5512345678", empresa: "")
            .get()
        let poisoned = try db.outbox.submit(
            .contactame(ContactRequest(site: site(1), contact: contact, comentario: "VENENO", fechahora: "f")), now: 0,
            backend: backend.url)
        let sameSite = try db.outbox.submit(rate(1), now: 0, backend: backend.url)
        let others = try (2...4).map { try db.outbox.submit(rate($0), now: 0, backend: backend.url).id }
        let clock = ManualClock(now: 0)
        let pass = OutboxDeliveryPass(
            database: db, client: try TablesClient(configuration: try backend.configuration(generation: generation)),
            schedule: BackoffSchedule(base: 10, cap: 10), clock: clock,
            policy: OutboxRetryPolicy(maxServerErrors: 3))

        let first = try pass.run()
        #expect(first.attempted == 4 && first.delivered == 3)
        #expect(try backendIDs(backend, table: "rateme") == others)  // the others were not held back
        #expect(try db.outbox.row(id: sameSite.id)?.state == .pending)  // same site: waits behind the bad row
        #expect(try pass.run().attempted == 0)  // the bad row waits its backoff (no hot loop)
        clock.advance(by: 10)
        #expect(try pass.run().attempted == 1)
        clock.advance(by: 10)
        let last = try pass.run()
        #expect(last.attempted == 2 && last.delivered == 1)
        let failed = try #require(try db.outbox.row(id: poisoned.id))
        #expect(failed.state == .failed && failed.attempts == 3)
        #expect(
            failed.lastError
                == "gave up after 3 attempts; the backend kept answering HTTP 500: Internal error (injected fault: this row always fails)"
        )
        #expect(try db.outbox.row(id: sameSite.id)?.state == .delivered)
        #expect(try backendIDs(backend, table: "rateme") == others + [sameSite.id])
        #expect(try backendIDs(backend, table: "contactame").isEmpty)
    }

    @Test(arguments: [2, 3]) func rowsStayPendingWhileTheAppKeyIsRefusedAndGoOnceItIsSet(_ generation: Int) throws {
        let backend = try BackendProcess(generation: generation, ["--app-key", "sekret"])
        let dir = try TemporaryDirectory("faro-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        let ids = try (0..<5).map { try db.outbox.submit(rate($0), now: 0, backend: backend.url).id }
        let deliverer = OutboxDeliverer(
            databasePath: path, configuration: try backend.configuration(generation: generation), schedule: .interactive
        )
        deliverer.start()
        defer { deliverer.stop() }
        let refused = deliverer.waitForStatus(timeout: 30) { $0.keyRefused != nil }
        #expect(refused?.keyRefused?.contains("refused the app key (HTTP 401") == true)
        #expect(refused?.counts == OutboxCounts(pending: 5, failed: 0, delivered: 0))
        for id in ids {
            let row = try #require(try db.outbox.row(id: id))
            #expect(row.state == .pending && row.attempts == 0)
        }
        #expect(try db.outbox.row(id: ids[0])?.lastError?.contains("app key") == true)
        let keyed = try BackendConfiguration(baseURL: backend.url, appKey: "sekret")
        deliverer.updateConfiguration(keyed)
        let done = deliverer.waitForStatus(timeout: 30) { $0.pendingHere == 0 }
        #expect(done?.counts == OutboxCounts(pending: 0, failed: 0, delivered: 5) && done?.keyRefused == nil)
        let held = try TablesClient(configuration: keyed).list(table: "rateme", query: "$top=1000").rows
        #expect(held.compactMap { $0["id"]?.stringValue } == ids)
    }

    @Test(arguments: [2, 3]) func anUnreachableBackendKeepsRowsPendingWithBackoffOnTheInjectedClock(_ generation: Int)
        throws
    {
        let dir = try TemporaryDirectory("faro-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        let row = try db.outbox.submit(rate(1), now: 0)
        let port: Int
        do { port = try BackendProcess(generation: generation).port }  // a port nothing listens on
        let configuration = try BackendConfiguration(baseURL: "http://127.0.0.1:\(port)")

        // One pass at a time: the row is tried once, then not again until its backoff has passed on the clock.
        let clock = ManualClock(now: 0)
        let pass = OutboxDeliveryPass(
            database: db, client: try TablesClient(configuration: configuration),
            schedule: BackoffSchedule(base: 2, cap: 60), clock: clock, policy: OutboxRetryPolicy(maxServerErrors: 2))
        let first = try pass.run()
        #expect(first.attempted == 1 && first.unreachable?.lowercased().contains("connect") == true)
        #expect(try pass.run().attempted == 0)
        let due = try #require(try db.outbox.row(id: row.id)?.nextAttemptAt)
        #expect((1...2).contains(due))  // 2 s with equal jitter
        clock.advance(by: due - 0.01)
        #expect(try pass.run().attempted == 0)
        clock.advance(by: 0.01)
        #expect(try pass.run().attempted == 1)

        // The thread on the same clock: one attempt per step of the clock, never a loop; no network never counts
        // against the row, whatever the attempts.
        let deliverer = OutboxDeliverer(
            databasePath: path, configuration: configuration, schedule: BackoffSchedule(base: 2, cap: 60),
            clock: clock, policy: OutboxRetryPolicy(maxServerErrors: 2))
        deliverer.start()
        defer { deliverer.stop() }
        var status = deliverer.waitForStatus(timeout: 30) { $0.passes >= 1 }
        for step in 2...5 {
            clock.advance(by: 120)
            status = deliverer.waitForStatus(timeout: 30) { $0.passes >= step }
        }
        #expect(status?.passes == 5 && status?.unreachable != nil)
        let stored = try #require(try db.outbox.row(id: row.id))
        #expect(stored.state == .pending && stored.serverErrors == 0)
        // 2 attempts above; the thread's first pass found the row waiting its backoff; then one per step.
        #expect(stored.attempts == 6)
        #expect(stored.lastError?.lowercased().contains("connect") == true)
        #expect(status?.counts?.pending == 1)
    }

    @Test(arguments: [2, 3]) func rowsQueuedForAnotherBackendAreShownNotSentUntilMoved(_ generation: Int) throws {
        let backend = try BackendProcess(generation: generation)
        let dir = try TemporaryDirectory("faro-outbox")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let mine = try db.outbox.submit(rate(1), now: 0, backend: backend.url)
        let theirs = try db.outbox.submit(rate(2), now: 0, backend: "https://antes.example")
        let pass = OutboxDeliveryPass(
            database: db, client: try TablesClient(configuration: try backend.configuration(generation: generation)),
            schedule: .interactive, clock: SystemOutboxClock())
        let outcome = try pass.run()
        #expect(outcome.delivered == 1 && outcome.pendingHere == 0 && outcome.queuedElsewhere == 1)
        #expect(try backendIDs(backend, table: "rateme") == [mine.id])
        #expect(try db.outbox.row(id: theirs.id)?.state == .pending)
        try db.outbox.move(id: theirs.id, to: backend.url, now: 1)
        #expect(try pass.run().delivered == 1)
        #expect(try backendIDs(backend, table: "rateme") == [mine.id, theirs.id])
    }

    @Test(arguments: [2, 3]) func refusedRowsAreKeptAsFailedWithTheServerMessageAndCanBeRetried(_ generation: Int)
        throws
    {
        let backend = try BackendProcess(generation: generation)
        let dir = try TemporaryDirectory("faro-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        let good = try db.outbox.submit(rate(1), now: 1)
        var configuration = try backend.configuration(generation: generation)
        configuration.tables.interested = "no-such-table"  // invalid name: the server answers 404
        let registration = try BusinessRegistration.validate(nombre: "A", email: "a@e.mx", telefono: "5512345678").get()
        let bad = try db.outbox.submit(.interested(registration), now: 1)
        let deliverer = OutboxDeliverer(databasePath: path, configuration: configuration, schedule: .interactive)
        deliverer.start()
        let status = deliverer.waitUntilDrained(timeout: 20)
        deliverer.stop()
        #expect(status?.counts == OutboxCounts(pending: 0, failed: 1, delivered: 1))
        let failed = try db.outbox.row(id: bad.id)
        #expect(failed?.state == .failed)
        #expect(failed?.lastError?.hasPrefix("table no-such-table not found on the backend (HTTP 404") == true)
        #expect(try db.outbox.row(id: good.id)?.state == .delivered)

        // The user fixes the configuration and retries the row: it goes through.
        #expect(try db.outbox.retry(id: bad.id, now: Date().timeIntervalSince1970))
        let fixed = OutboxDeliverer(
            databasePath: path, configuration: try backend.configuration(generation: generation), schedule: .interactive
        )
        fixed.start()
        let after = fixed.waitUntilDrained(timeout: 20)
        fixed.stop()
        #expect(after?.counts == OutboxCounts(pending: 0, failed: 0, delivered: 2))
        #expect(try backendIDs(backend, table: "interested") == [bad.id])
    }

    @Test(arguments: [2, 3]) func aDeliveryPassRunsWithoutAThread(_ generation: Int) throws {
        let backend = try BackendProcess(generation: generation)
        let dir = try TemporaryDirectory("faro-outbox")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        for i in 0..<5 { try db.outbox.submit(rate(i, 2), now: 0) }
        let pass = OutboxDeliveryPass(
            database: db, client: try TablesClient(configuration: try backend.configuration(generation: generation)),
            schedule: .background, clock: SystemOutboxClock())
        let outcome = try pass.run()
        #expect(outcome.delivered == 5 && outcome.nextDue == nil)
        #expect(try db.outbox.counts().delivered == 5)
        #expect(try db.outbox.list(states: [.delivered]).allSatisfy { $0.backend == backend.url })
    }
}

/// Collects statuses reported from the delivery thread.
final class StatusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [OutboxDeliverer.Status] = []
    func add(_ s: OutboxDeliverer.Status) {
        lock.lock()
        items.append(s)
        lock.unlock()
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return items.count
    }
}
