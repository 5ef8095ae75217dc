import FaroTestSupport
import Foundation
import Testing

/// The window's own background delivery, killed -9 at varying moments while faro-backend delays answers and cuts
/// connections after inserts (faults on the verifying reads would only make the test flaky): every
/// submission arrives exactly once (the outbox commits before anything says "sent", and client ids make retries
/// idempotent), as faro-backend's count of 201 answers per row id shows.
@Suite("App delivery under kill -9")
struct AppDeliveryChaosTests {
    @Test func theAppsBackgroundDeliveryLosesNothingWhenKilled() throws {
        let rows = 60
        let backend = try WindowTests.Backend(["--latency-ms", "0:20", "--drop-rate", "0.15"])
        let data = try TemporaryDirectory("faro-app-chaos")
        try FileManager.default.createDirectory(atPath: data.file("home"), withIntermediateDirectories: true)
        var env = data.xdgEnvironment
        env["FARO_DATA_DIR"] = Paths.data
        let faro = Paths.executable("faro")
        var ids = Set<String>()
        var kills = 0
        for round in 0..<12 {
            // Five submissions through the terminal, then the app delivers until it is killed.
            for i in 0..<(rows / 12) {
                let n = round * (rows / 12) + i
                let r = try ChildProcess.run(
                    faro,
                    [
                        "register", "--nombre", "Negocio \(n)", "--email", "n\(n)@ejemplo.mx",
                        "--telefono", "55 1234 \(String(format: "%04d", n))",
                    ],
                    environment: env, timeout: 30)
                #expect(r.status == 0, "\(r.stderr)")
                if let id = r.stdout.split(separator: "\n").first { ids.insert(String(id)) }
            }
            let app = try ChildProcess(
                Paths.packageRoot + "/Tests/UI/with-display.sh",
                [
                    faro, "--source", "replay", Paths.data + "/demo/walk.jsonl", "--backend",
                    backend.url, "--no-tray",
                ], environment: env)
            let pidLine = try #require(app.waitForLine(timeout: 30) { $0.hasPrefix("PID ") })
            let pid = try #require(Int32(pidLine.dropFirst(4)))
            Thread.sleep(forTimeInterval: 1.0 + Double((round * 7) % 10) / 10)
            if kill(pid, 0) == 0 {
                kill(pid, SIGKILL)
                kills += 1
            }
            _ = app.wait(timeout: 20)
        }
        #expect(kills >= 10)
        #expect(ids.count == rows)
        // The app did deliver (its deliverer ran between kills), and nothing arrived twice.
        let byApp = try backend.rows("interested").compactMap { $0["id"] as? String }
        #expect(!byApp.isEmpty)
        #expect(Set(byApp).count == byApp.count)
        // Whatever the app had not delivered yet is still in the outbox: deliver it now.
        let flush = try ChildProcess.run(
            faro, ["outbox", "flush", "--timeout", "60", "--backend", backend.url],
            environment: env, timeout: 90)
        #expect(flush.status == 0, "\(flush.stderr)")
        let onServer = try backend.rows("interested").compactMap { $0["id"] as? String }
        #expect(onServer.count == rows)
        #expect(Set(onServer) == ids)
        // The server's own count of accepted inserts (201s) per row id: its primary key would hide a second one.
        let accepted = try BackendInserts.counts(backend.url)["interested"] ?? [:]
        #expect(Set(accepted.keys) == ids)
        #expect(accepted.values.allSatisfy { $0 == 1 }, "accepted more than once: \(accepted.filter { $0.value != 1 })")
    }
}
