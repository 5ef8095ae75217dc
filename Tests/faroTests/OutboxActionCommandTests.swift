import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// `faro outbox retry|discard|move` as a user types them, against a real database file and faro-backend.
@Suite(.serialized) struct OutboxActionCommandTests {
    let faro = Paths.executable("faro")

    func run(_ arguments: [String], _ env: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(faro, arguments, environment: env, timeout: 60)
    }

    func register(_ n: Int, _ env: [String: String], backend: String? = nil) throws -> String {
        let r = try run(
            ["register", "--nombre", "Negocio \(n)", "--email", "n\(n)@e.mx", "--telefono", "5512345678"]
                + (backend.map { ["--backend", $0] } ?? []), env)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [2, 3]) func aRefusedRowIsRetriedAndAnotherIsDiscardedOnTheUsersWord(_ generation: Int) throws {
        let home = try TemporaryDirectory("faro-cli")
        var env = home.xdgEnvironment
        env["FARO_BACKEND_PROTOCOL"] = String(generation)
        let backend = try BackendProcess(["--protocol", String(generation)])
        let keep = try register(1, env)
        let drop = try register(2, env)
        // Both are refused for good by a backend whose table is missing (404), and kept as failed.
        var bad = env
        bad["FARO_TABLE_INTERESTED"] = "no-such-table"
        let refused = try run(["outbox", "flush", "--backend", backend.url, "--timeout", "20"], bad)
        #expect(refused.status == 0 && refused.stderr.contains("2 row(s) were refused"))
        let listed = try run(["outbox", "--json"], env)
        #expect(listed.stdout.contains("table no-such-table not found on the backend"))

        let discard = try run(["outbox", "discard", drop], env)
        #expect(discard.status == 0 && discard.stdout == "discarded: \(drop)\n")
        let again = try run(["outbox", "discard", drop], env)
        #expect(again.status == 1 && again.stderr.contains("no pending or failed row with id \(drop)"))
        let retry = try run(["outbox", "retry", keep], env)
        #expect(retry.status == 0 && retry.stdout == "queued again: \(keep)\n")
        let flush = try run(["outbox", "flush", "--backend", backend.url, "--timeout", "20"], env)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(try BackendInserts.storedIDs(backend.url, table: "interested") == [keep])
        // Delivered rows are history: neither retried nor discarded.
        #expect(try run(["outbox", "discard", keep], env).status == 1)
        #expect(try run(["outbox", "retry", "--all"], env).stdout == "queued again: 0 row(s)\n")
    }

    @Test(arguments: [2, 3]) func rowsQueuedForAnotherBackendWaitUntilMoved(_ generation: Int) throws {
        let home = try TemporaryDirectory("faro-cli")
        var env = home.xdgEnvironment
        env["FARO_BACKEND_PROTOCOL"] = String(generation)
        let before = try BackendProcess(["--protocol", String(generation)])
        let now = try BackendProcess(["--protocol", String(generation)])
        let id = try register(1, env, backend: before.url)
        let db = try FaroDatabase(path: FaroDatabase.defaultPath(environment: env))
        #expect(try db.outbox.row(id: id)?.backend == before.url)
        // The backend setting changed: the row is not sent to the new one behind the user's back.
        let held = try run(["outbox", "flush", "--backend", now.url, "--timeout", "5"], env)
        #expect(held.status == 1 && held.stderr.contains("1 row(s) wait for another backend (\(before.url))"))
        #expect(try BackendInserts.storedIDs(now.url, table: "interested").isEmpty)
        let moved = try run(["outbox", "move", "--all", "--backend", now.url], env)
        #expect(moved.status == 0 && moved.stdout == "queued for \(now.url): 1 row(s)\n")
        let flush = try run(["outbox", "flush", "--backend", now.url, "--timeout", "20"], env)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(try BackendInserts.storedIDs(now.url, table: "interested") == [id])
        #expect(try BackendInserts.storedIDs(before.url, table: "interested").isEmpty)
    }

    @Test(arguments: [
        ["outbox", "retry"], ["outbox", "discard"], ["outbox", "discard", "--all"], ["outbox", "retry", "a", "b"],
        ["outbox", "retry", "--all", "--json"], ["outbox", "frobnicate"], ["outbox", "retry", "x", "--timeout", "3"],
    ])
    func mistakesAreUsageErrors(_ arguments: [String]) throws {
        let home = try TemporaryDirectory("faro-cli")
        let r = try run(arguments, home.xdgEnvironment)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
    }
}
