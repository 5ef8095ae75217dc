import FaroApp
import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// One budget of `Tests/Budgets/budgets.json`: a count that is the same on every run, and the most it may be.
struct CountBudget: Decodable {
    var name: String
    var budget: Int
    var counts: String
    var source: String
}

/// The budgets file, read at each check (a budget edited counts at the next run, without a rebuild).
enum CountBudgets {
    struct File: Decodable {
        var budgets: [CountBudget]
    }

    static let path = Paths.packageRoot + "/Tests/Budgets/budgets.json"

    /// Every budget, in the file's order.
    static func list() throws -> [CountBudget] {
        try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path))).budgets
    }

    /// The budgets by name (the first of a repeated name; `everyBudgetIsMeasuredAndEveryMeasureHasABudget` fails on
    /// a repeat).
    static func load() throws -> [String: CountBudget] {
        Dictionary(try list().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Fails the test when `measured` exceeds the budget named `name` (or no such budget exists); prints both.
    static func check(_ name: String, _ measured: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let budgets = try load()
        guard let budget = budgets[name] else {
            Issue.record("no budget named \(name) in Tests/Budgets/budgets.json", sourceLocation: sourceLocation)
            return
        }
        print("budget \(name): measured \(measured), budget \(budget.budget)")
        #expect(
            measured <= budget.budget,
            "\(name): measured \(measured), budget \(budget.budget) — \(budget.counts)", sourceLocation: sourceLocation)
    }
}

/// faro-backend's `--request-log`: one line per /tables request it answered.
struct RequestLogFile {
    let path: String

    /// Every logged request line (`GET /tables/…?…`), oldest first.
    var lines: [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}

/// The counts of `Tests/Budgets/budgets.json`, measured on the real path (faro-backend over loopback, real SQLite
/// files, the window's list stage) and held to their budgets. Each test prints what it measured beside its budget.
@Suite(.serialized) struct BudgetTests {
    /// Every budget name a test here checks: the file holds no budget that nothing measures.
    static let measured: Set<String> = [
        "catalog.fullPull.v2.requests", "catalog.fullPull.v3.requests", "catalog.delta.v2.requests",
        "catalog.delta.v3.requests", "catalog.delta.rows", "catalog.unchanged.requests", "outbox.requestsPerRow",
        "outbox.requestsPerRowAlreadyHeld", "probe.v2.requests", "probe.v3.requests", "list.rowsChanged.nothingMoved",
        "list.rowsChanged.oneMoved", "monitoring.wakeUpsWithNothingInRange",
    ]

    @Test func everyBudgetIsMeasuredAndEveryMeasureHasABudget() throws {
        let budgets = try CountBudgets.list()
        #expect(budgets.count == Set(budgets.map(\.name)).count, "a name is repeated")
        #expect(Set(budgets.map(\.name)) == Self.measured)
        for budget in budgets {
            #expect(budget.budget >= 0 && !budget.counts.isEmpty && !budget.source.isEmpty, "\(budget.name)")
        }
    }

    /// A first sync of 10,000 rows, then 10 changes, then nothing new: the requests faro-backend logged for each
    /// and the rows the delta's answers held. The delta's counts do not depend on the catalog's size (it asks for
    /// rows newer than its cursor), so 10,000 rows stand for the benchmark's 100,000.
    @Test(arguments: [2, 3]) func catalogSync(_ generation: Int) throws {
        let table = "catalogo"
        let dir = try TemporaryDirectory("faro-budget")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 10_000), to: dir.file("rows.json"))
        let log = RequestLogFile(path: dir.file("requests.log"))
        let backend = try BackendProcess(
            generation: generation,
            [
                "--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json"), "--request-log", log.path,
            ])
        var configuration = try backend.configuration(generation: generation)
        configuration.tables.catalog = table
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = CatalogSync(database: db, client: try TablesClient(configuration: configuration))

        let first = try sync.run()
        #expect(first.added == 10_000)
        try CountBudgets.check("catalog.fullPull.v\(generation).requests", log.lines.count)

        let ten = (0..<10).map { i -> JSONValue in
            .object([("id", .string(String(cFormat: "b%05ld", 1000 * i + 1))), ("titulo", .string("Diez \(i)"))])
        }
        try CatalogFixture.write(table, ten, to: dir.file("ten.json"))
        try CatalogFixture.apply(dir.file("ten.json"), to: dir.file("backend.sqlite3"))
        let before = log.lines.count
        let delta = try sync.run()
        #expect(delta.updated == 10)
        let deltaRequests = Array(log.lines.dropFirst(before))
        try CountBudgets.check("catalog.delta.v\(generation).requests", deltaRequests.count)
        // The rows those answers held, read again from the very URLs the sync asked for.
        let reader = try TablesClient(configuration: configuration)
        var rows = 0
        for line in deltaRequests {
            let path = try #require(line.split(separator: " ", maxSplits: 1).last)
            rows += try reader.list(url: backend.url + path).rows.count
        }
        #expect(rows >= 10)
        try CountBudgets.check("catalog.delta.rows", rows)

        let settled = log.lines.count
        let unchanged = try sync.run()
        #expect(unchanged.added + unchanged.updated + unchanged.deleted == 0)
        try CountBudgets.check("catalog.unchanged.requests", log.lines.count - settled)
    }

    func rating(_ n: Int) -> OutboxSubmission {
        .rateme(
            SiteRating(
                site: SiteIdentity(cliente: "Cliente \(n)", titulo: "Título", url: "http://s/\(n)"), imei: "imei",
                calificacion: 1 + n % 5, fechahora: "2026-11-29T14:03:07.123Z"))
    }

    /// Requests per row that one delivery pass makes: 20 rows new to the backend, then 20 rows it already holds
    /// (sent before, as by a deliverer stopped between sending and recording it; each answered 409).
    @Test(arguments: [2, 3]) func outboxDelivery(_ generation: Int) throws {
        let dir = try TemporaryDirectory("faro-budget")
        let log = RequestLogFile(path: dir.file("requests.log"))
        let backend = try BackendProcess(generation: generation, ["--request-log", log.path])
        let configuration = try backend.configuration(generation: generation)
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        func pass() throws -> OutboxDeliveryPass.Outcome {
            try OutboxDeliveryPass(
                database: db, client: try TablesClient(configuration: configuration), schedule: .background,
                clock: SystemOutboxClock()
            ).run()
        }
        func perRow(requests: Int, delivered: Int) -> Int {
            delivered == 0 ? requests : (requests + delivered - 1) / delivered
        }

        for i in 0..<20 { try db.outbox.submit(rating(i), now: 0) }
        let fresh = try pass()
        #expect(fresh.delivered == 20)
        try CountBudgets.check("outbox.requestsPerRow", perRow(requests: log.lines.count, delivered: fresh.delivered))

        for i in 20..<40 { try db.outbox.submit(rating(i), now: 0) }
        let sender = try TablesClient(configuration: configuration)
        let queued = try db.outbox.due(backend: backend.url, now: Date().timeIntervalSince1970, limit: 100)
        #expect(queued.count == 20)
        for row in queued {
            let result = sender.insert(table: configuration.tableName(for: row.table), json: row.body)
            guard case .response(let status, _) = result, (200..<300).contains(status) else {
                Issue.record("the first send failed: \(result)")
                return
            }
        }
        let before = log.lines.count
        let held = try pass()
        #expect(held.delivered == 20 && held.attempted == 20)
        try CountBudgets.check(
            "outbox.requestsPerRowAlreadyHeld", perRow(requests: log.lines.count - before, delivered: held.delivered))
        #expect(try backendIDs(backend, table: "rateme").count == 40)
    }

    /// "Probar conexión" against faro-backend's demo catalog.
    @Test(arguments: [2, 3]) func connectionTest(_ generation: Int) throws {
        let dir = try TemporaryDirectory("faro-budget")
        let log = RequestLogFile(path: dir.file("requests.log"))
        let backend = try BackendProcess(generation: generation, ["--request-log", log.path])
        let result = BackendProbe.run(baseURL: backend.url)
        guard case .connected(_, let spoken) = result else {
            Issue.record("the probe did not connect: \(result)")
            return
        }
        #expect(spoken.rawValue == generation)
        try CountBudgets.check("probe.v\(generation).requests", log.lines.count)
    }

    /// The window's list stage over 1,000 beacons heard once a second at steady signal strengths (each row's
    /// distance history full, so a row changes only when its beacon does): the rows given a new revision in a
    /// tick where nothing moved, and in one where one beacon came closer.
    @Test func listRowsChangedPerTick() throws {
        let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
        let count = 1_000
        func sighting(_ minor: Int, rssi: Int8, at time: Double) -> BeaconSighting {
            BeaconSighting(
                beacon: IBeacon(uuid: uuid, major: 100, minor: UInt16(minor), measuredPower: -59),
                address: BluetoothAddress(value: UInt64(minor)), rssi: rssi, time: time)
        }
        func steady(_ minor: Int) -> Int8 { Int8(-50 - minor % 40) }
        var session = BeaconSession()
        let published = Locked<BeaconListUpdate?>(nil)
        let stage = BeaconListStage(localize: .english, publish: { published.set($0) })
        let inputs = BeaconListInputs(state: .scanning, listWanted: true)
        var second = 0
        /// One second: every beacon heard once (`moved` at `rssi`), then the tick; the list it built.
        func tick(moved: Int? = nil, rssi: Int8 = -40) throws -> BeaconListUpdate {
            for minor in 0..<count {
                session.observe(
                    sighting(minor, rssi: minor == moved ? rssi : steady(minor), at: Double(second) + 0.5)
                ) { _ in }
            }
            second += 1
            var updates: [BeaconSessionUpdate] = []
            session.tick(at: Double(second)) { updates.append($0) }
            published.set(nil)
            _ = stage.process(updates, inputs: inputs, refresh: false)
            if let list = published.get() { return list }
            throw BackendProcess.StartFailure(description: "tick \(second) built no list")
        }
        func changed(_ list: BeaconListUpdate) -> Int { list.revisions.filter { $0 == list.generation }.count }

        // Long enough for every filter to settle and every history to fill.
        var list = try tick()
        for _ in 0..<90 { list = try tick() }
        #expect(list.model.rows.count == count)
        let still = try tick()
        try CountBudgets.check("list.rowsChanged.nothingMoved", changed(still))

        let moved = 500
        let closer = try tick(moved: moved)
        let id = BeaconIdentity(uuid: uuid, major: 100, minor: UInt16(moved))
        #expect(closer.row(id)?.revision == closer.generation, "the beacon that moved has a new row")
        try CountBudgets.check("list.rowsChanged.oneMoved", changed(closer))
    }

    /// Monitoring with the window closed: the session runner (with the window's list stage) ranges ten beacons
    /// heard for a few seconds, they leave (the 30 s exit period), and then, with nothing in range, its thread must
    /// not wake. Its wake-ups are counted as its reads of its clock: it reads it at every pass of its wait loop
    /// while it ticks and in every job, and not at all while it sleeps. That clock runs 50 times faster than the
    /// machine's (the runner waits by it), so the 50 seconds watched after the last beacon left take a second; a
    /// machine too busy to keep up only makes fewer wake-ups.
    @Test func monitoringWakeUpsWithNothingInRange() throws {
        let speed = 50.0
        let origin = ProcessInfo.processInfo.systemUptime
        let clock: @Sendable () -> Double = { (ProcessInfo.processInfo.systemUptime - origin) * speed }
        let reads = Locked(0)
        let runnerClock: @Sendable () -> Double = {
            reads.set(reads.get() + 1)
            return clock()
        }
        let uuid = BeaconUUID(high: 3, low: 4)
        let stage = BeaconListStage(localize: .english, publish: { _ in })
        let inRange = Locked<[Int]>([])
        let delivered = ConditionLock()
        let runner = BeaconSessionRunner(
            session: BeaconSession(), stage: stage, inputs: BeaconListInputs(state: .scanning, listWanted: false),
            machineClock: runnerClock, hop: { $0() },
            deliver: { outputs in
                for case .ranged(let result) in outputs { inRange.set(inRange.get() + [result.inRange]) }
                delivered.broadcast()
            })
        defer { runner.stop() }

        // Heard once a (fast) second for five seconds.
        for _ in 0..<5 {
            for minor in 1...10 {
                runner.observe(
                    BeaconSighting(
                        beacon: IBeacon(uuid: uuid, major: 1, minor: UInt16(minor), measuredPower: -59),
                        address: BluetoothAddress(value: UInt64(minor)), rssi: -60, time: clock()))
            }
            Thread.sleep(forTimeInterval: 1 / speed)
        }
        // Waits (an event wait, bounded) for the tick that finds them gone.
        let deadline = Date(timeIntervalSinceNow: 30)
        delivered.lock()
        while !(inRange.get().contains(10) && inRange.get().last == 0), delivered.wait(until: deadline) {}
        delivered.unlock()
        #expect(inRange.get().contains(10), "the beacons were ranged: \(inRange.get())")
        try #require(inRange.get().last == 0, "the beacons left: \(inRange.get())")

        let before = reads.get()
        Thread.sleep(forTimeInterval: 50 / speed)
        try CountBudgets.check("monitoring.wakeUpsWithNothingInRange", reads.get() - before)
    }
}
