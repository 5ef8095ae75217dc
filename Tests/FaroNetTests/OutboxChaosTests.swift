import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// Ids collected from several threads.
final class IDLog: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    private var problems: [String] = []
    func add(_ id: String) {
        lock.lock()
        ids.append(id)
        lock.unlock()
    }
    func problem(_ p: String) {
        lock.lock()
        problems.append(p)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return ids
    }
    var issues: [String] {
        lock.lock()
        defer { lock.unlock() }
        return problems
    }
}

@Suite(.serialized) struct OutboxChaosTests {
    static let total = 1000
    static let throughCLI = 150

    /// 1,000 submissions (150 through `faro register`, 850 through the library) while faro-backend fails, delays,
    /// cuts and refuses connections, and the delivering `faro outbox flush` process (which runs the app's
    /// background deliverer) is killed -9 at random moments at least 10 times, with the library's own background
    /// deliverer running beside it. Afterwards the backend holds exactly the 1,000 rows: none lost, and none accepted
    /// twice — counted by the server's 201 answers per row id (`--debug`), since its primary key alone would hide a
    /// second acceptance.
    @Test(.timeLimit(.minutes(3)), arguments: [2, 3]) func nothingIsLostOrDuplicatedUnderFaultsAndKills(
        _ generation: Int
    ) throws {
        var seedSource = SystemRandomNumberGenerator()
        let seed = seedSource.next() % 1_000_000
        var dice = SplitMix64(seed: seed)
        let backend = try BackendProcess(
            generation: generation,
            [
                "--fail-rate", "0.1", "--fail-status", "500,503", "--latency-ms", "0:8",
                "--drop-rate", "0.06", "--refuse-for", "0.3", "--refuse-every", "2.5",
                "--seed", String(seed), "--debug",
            ])
        let home = try TemporaryDirectory("faro-chaos")
        let environment = home.xdgEnvironment.merging(["FARO_BACKEND_PROTOCOL": String(generation)]) { $1 }
        let path = FaroDatabase.defaultPath(environment: environment)
        let faro = Paths.executable("faro")
        let started = Date()

        // Submissions through the terminal, on their own thread.
        let submitted = IDLog()
        let registrar = Thread {
            for i in 0..<Self.throughCLI {
                guard
                    let r = try? ChildProcess.run(
                        faro,
                        [
                            "register", "--nombre", "Negocio \(i)", "--email", "n\(i)@ejemplo.mx",
                            "--telefono", "55 1234 \(String(format: "%04d", i))",
                        ],
                        environment: environment, timeout: 30),
                    r.status == 0, let id = r.stdout.split(separator: "\n").first.map(String.init),
                    OutboxRowID.isValid(id)
                else {
                    submitted.problem("faro register #\(i) failed")
                    continue
                }
                submitted.add(id)
            }
        }
        // Submissions through the library, with the library's background deliverer running.
        let library = try FaroDatabase(path: path)
        let background = OutboxDeliverer(
            databasePath: path, configuration: try backend.configuration(generation: generation),
            schedule: BackoffSchedule(base: 0.05, cap: 1), idleRecheck: 0.5)
        registrar.start()
        background.start()

        var kills = 0
        var librarySubmitted = 0
        let contact = try ContactDetails.validate(
            nombre: "Ana", email: "ana@e.mx", telefono: "5512345678", empresa: "ACME"
        ).get()
        var flush: ChildProcess? = nil
        var rounds = 0
        while (kills < 12 || librarySubmitted < Self.total - Self.throughCLI) && rounds < 100 {
            rounds += 1
            // A burst of library submissions, over all three tables.
            for _ in 0..<min(61, Self.total - Self.throughCLI - librarySubmitted) {
                let n = librarySubmitted
                let site = SiteIdentity(
                    cliente: "Cliente \(n % 8)", titulo: "Sitio", url: "http://127.0.0.1/sitios/\(n)/")
                let fecha = Fechahora.format(secondsSince1970: Date().timeIntervalSince1970)
                let submission: OutboxSubmission
                switch n % 3 {
                case 0:
                    submission = .rateme(
                        SiteRating(site: site, imei: "imei-\(n)", calificacion: n % 6, fechahora: fecha))
                case 1:
                    submission = .contactame(
                        ContactRequest(
                            site: site, contact: contact, comentario: "comentario \(n)", fechahora: fecha))
                default:
                    submission = .interested(
                        try BusinessRegistration.validate(
                            nombre: "Lib \(n)", email: "l\(n)@e.mx", telefono: "5500000000"
                        ).get())
                }
                let row = try library.outbox.submit(submission, now: Date().timeIntervalSince1970)
                submitted.add(row.id)
                librarySubmitted += 1
                background.wake()
            }
            // A flush process, killed -9 at a random moment (most of them mid-delivery).
            if flush == nil {
                flush = try ChildProcess(
                    faro, ["outbox", "flush", "--timeout", "60", "--backend", backend.url],
                    environment: environment)
            }
            Thread.sleep(forTimeInterval: 0.1 + dice.nextUnit() * 0.5)
            if let running = flush {
                if running.process.isRunning {
                    running.signal(SIGKILL)
                    kills += 1
                }
                _ = running.wait(timeout: 10)
                flush = nil
            }
            if kills == 6 { background.stop(timeout: 10) }  // the app quits half-way; the CLI carries on
        }
        registrar.join(timeout: 120)
        background.stop(timeout: 10)
        #expect(kills >= 10)
        #expect(submitted.issues.isEmpty, "\(submitted.issues.prefix(3))")
        #expect(submitted.all.count == Self.total)

        // A last flush, not killed, must finish with nothing pending.
        let final = try ChildProcess.run(
            faro, ["outbox", "flush", "--timeout", "60", "--backend", backend.url],
            environment: environment, timeout: 90)
        #expect(final.status == 0, "flush: \(final.stderr)")

        let counts = try FaroDatabase(path: path).outbox.counts()
        #expect(counts == OutboxCounts(pending: 0, failed: 0, delivered: Self.total))
        var onServer: [String] = []
        for table in OutboxTable.allCases { onServer += try backendIDs(backend, table: table.rawValue) }
        #expect(onServer.count == Self.total, "seed \(seed)")
        #expect(Set(onServer).count == onServer.count, "duplicates on the server (seed \(seed))")
        #expect(Set(onServer) == Set(submitted.all), "seed \(seed)")
        let accepted = try BackendInserts.perID(backend.url)
        #expect(Set(accepted.keys) == Set(submitted.all), "seed \(seed)")
        let twice = accepted.filter { $0.value != 1 }
        #expect(twice.isEmpty, "accepted more than once (seed \(seed)): \(twice.prefix(5))")
        print(
            "chaos: \(kills) kills, \(Self.total) rows, \(String(format: "%.1f", Date().timeIntervalSince(started))) s, seed \(seed)"
        )
    }
}

extension Thread {
    /// Waits (polling, bounded by `timeout`) until the thread has finished.
    func join(timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        while !isFinished, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }
}
