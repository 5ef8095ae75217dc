import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// Rows on the backend's table, in the order the backend stored them. Reads are retried (the backend may be
/// injecting faults into them too).
func backendIDs(_ backend: BackendProcess, table: String) throws -> [String] {
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
    var ids = page.rows.compactMap { $0["id"]?.stringValue }
    var hops = 0
    while let next = page.next, hops < 100 {
        page = try read { try client.list(url: next) }
        ids += page.rows.compactMap { $0["id"]?.stringValue }
        hops += 1
    }
    return ids
}

@Suite(.serialized) struct OutboxDelivererTests {
    func site(_ n: Int) -> SiteIdentity {
        SiteIdentity(cliente: "Cliente \(n)", titulo: "Título", url: "http://s/\(n)")
    }

    @Test func deliversEveryRowOnceAndInOrderPerTableDespiteFaults() throws {
        let backend = try BackendProcess(["--fail-rate", "0.3", "--drop-rate", "0.2", "--seed", "11"])
        let dir = try TemporaryDirectory("faro-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        var expected: [OutboxTable: [String]] = [:]
        let contact = try ContactDetails.validate(nombre: "Ana", email: "a@b.mx", telefono: "5512345678", empresa: "")
            .get()
        for i in 0..<60 {
            let submission: OutboxSubmission
            switch i % 3 {
            case 0:
                submission = .interested(
                    try BusinessRegistration.validate(nombre: "N\(i)", email: "n@e.mx", telefono: "5512345678").get())
            case 1:
                submission = .contactame(
                    site: site(i), contact: contact, comentario: "hola \(i)",
                    fechahora: Fechahora.format(secondsSince1970: Date().timeIntervalSince1970))
            default:
                submission = .rateme(
                    site: site(i), imei: "imei", calificacion: i % 6, fechahora: "2026-11-29T14:03:07.123Z")
            }
            let row = try db.outbox.submit(submission, now: Date().timeIntervalSince1970)
            expected[row.table, default: []].append(row.id)
        }
        let statuses = StatusLog()
        let deliverer = OutboxDeliverer(
            databasePath: path, configuration: try backend.configuration(),
            schedule: BackoffSchedule(base: 0.02, cap: 0.2), onStatus: { statuses.add($0) })
        deliverer.start()
        let status = deliverer.waitUntilDrained(timeout: 60)
        deliverer.stop()
        #expect(status?.counts == OutboxCounts(pending: 0, failed: 0, delivered: 60))
        for table in OutboxTable.allCases {
            #expect(try backendIDs(backend, table: table.rawValue) == expected[table], "\(table)")
        }
        #expect(statuses.count > 0)
        // Retries happened (the faults were real) and every row records its attempts.
        #expect(try db.outbox.list(states: [.delivered]).contains { $0.attempts > 1 })
    }

    @Test func refusedRowsAreKeptAsFailedWithTheServerMessageAndCanBeRetried() throws {
        let backend = try BackendProcess()
        let dir = try TemporaryDirectory("faro-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        let good = try db.outbox.submit(.rateme(site: site(1), imei: "i", calificacion: 3, fechahora: "f"), now: 1)
        var configuration = try backend.configuration()
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
        #expect(failed?.lastError?.contains("404") == true)
        #expect(try db.outbox.row(id: good.id)?.state == .delivered)

        // The user fixes the configuration and presses "retry now": the row goes through.
        let fixed = OutboxDeliverer(
            databasePath: path, configuration: try backend.configuration(), schedule: .interactive)
        try db.outbox.retryNow(now: Date().timeIntervalSince1970, includingFailed: true)
        fixed.start()
        fixed.retryNow()
        let after = fixed.waitUntilDrained(timeout: 20)
        fixed.stop()
        #expect(after?.counts == OutboxCounts(pending: 0, failed: 0, delivered: 2))
        #expect(try backendIDs(backend, table: "interested") == [bad.id])
    }

    @Test func anUnreachableBackendKeepsRowsPendingWithBackoff() throws {
        let dir = try TemporaryDirectory("faro-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        let row = try db.outbox.submit(
            .rateme(site: site(1), imei: "i", calificacion: 1, fechahora: "f"),
            now: Date().timeIntervalSince1970)
        // A port nothing listens on: start a backend, note its port, stop it.
        let port: Int
        do { port = try BackendProcess().port }
        let configuration = try BackendConfiguration(baseURL: "http://127.0.0.1:\(port)")
        let deliverer = OutboxDeliverer(
            databasePath: path, configuration: configuration, schedule: BackoffSchedule(base: 0.05, cap: 0.2))
        deliverer.start()
        Thread.sleep(forTimeInterval: 1.0)
        deliverer.stop()
        let stored = try db.outbox.row(id: row.id)
        #expect(stored?.state == .pending)
        #expect((stored?.attempts ?? 0) >= 3)
        #expect((stored?.attempts ?? 0) < 40)  // backoff, not a hot loop
        #expect(stored?.lastError?.lowercased().contains("connect") == true)
        #expect(deliverer.status?.counts?.pending == 1)
    }

    @Test func aDeliveryPassRunsWithoutAThread() throws {
        let backend = try BackendProcess()
        let dir = try TemporaryDirectory("faro-outbox")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        for i in 0..<5 {
            try db.outbox.submit(.rateme(site: site(i), imei: "i", calificacion: 2, fechahora: "f"), now: 0)
        }
        let pass = OutboxDeliveryPass(
            database: db, client: try TablesClient(configuration: try backend.configuration()),
            schedule: .background, clock: SystemOutboxClock())
        let outcome = try pass.run()
        #expect(outcome.delivered == 5 && outcome.nextDue == nil)
        #expect(try db.outbox.counts().delivered == 5)
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
