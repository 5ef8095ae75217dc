import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// `faro register`, `faro outbox` and `faro outbox flush` as scripts use them (docs/cli.md).
@Suite(.serialized) struct OutboxCommandTests {
    let faro = Paths.executable("faro")

    @Test func registerValidatesCommitsAndPrintsTheID() throws {
        let home = try TemporaryDirectory("faro-cli")
        let env = home.xdgEnvironment
        let ok = try ChildProcess.run(
            faro,
            [
                "register", "--nombre", " Ana López ", "--email", "ana@ejemplo.mx",
                "--telefono", "(55) 1234-5678",
            ], environment: env, timeout: 30)
        #expect(ok.status == 0)
        let id = ok.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(OutboxRowID.isValid(id))
        let row = try FaroDatabase(path: FaroDatabase.defaultPath(environment: env)).outbox.row(id: id)
        #expect(row?.table == .interested && row?.state == .pending)
        #expect(row?.body == #"{"id":"\#(id)","nombre":"Ana López","email":"ana@ejemplo.mx","telefono":"5512345678"}"#)

        let bad = try ChildProcess.run(
            faro, ["register", "--nombre", "Bo", "--email", "bo@", "--telefono", "123"],
            environment: env, timeout: 30)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("email") && bad.stderr.contains("telefono") && bad.stdout.isEmpty)
        let usage = try ChildProcess.run(
            faro, ["register", "--nombre", "Bo", "--bogus"], environment: env, timeout: 30)
        #expect(usage.status == 2)
        #expect(try FaroDatabase(path: FaroDatabase.defaultPath(environment: env)).outbox.counts().pending == 1)
    }

    @Test func outboxListsPendingAndFailedRowsAsJSON() throws {
        let home = try TemporaryDirectory("faro-cli")
        let env = home.xdgEnvironment
        let db = try FaroDatabase(path: FaroDatabase.defaultPath(environment: env))
        let site = SiteIdentity(cliente: "C", titulo: "T", url: "http://s/")
        let a = try db.outbox.submit(
            .rateme(SiteRating(site: site, imei: "i", calificacion: 4, fechahora: "f")), now: 1_795_960_987.5)
        let b = try db.outbox.submit(
            .rateme(SiteRating(site: site, imei: "i", calificacion: 5, fechahora: "f")), now: 1_795_960_988)
        var random = SplitMix64(seed: 1)
        try db.outbox.apply(
            OutboxTransition.after(
                .rejected(reason: .refused(status: 400, message: "no \"way\"")), previousAttempts: 0,
                now: 2, schedule: .background, random: &random), toRow: b.seq, now: 2)
        let r = try ChildProcess.run(faro, ["outbox", "--json"], environment: env, timeout: 30)
        #expect(r.status == 0)
        let json = try JSONValue.parse(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(json["pending"] == .integer(1) && json["failed"] == .integer(1))
        let rows = json["rows"]?.arrayValue ?? []
        #expect(rows.count == 2)
        #expect(rows.first?["id"] == .string(a.id) && rows.first?["created_at"] == .string("2026-11-29T14:03:07.500Z"))
        #expect(rows.last?["state"] == .string("failed") && rows.last?["last_error"] == .string(#"HTTP 400: no "way""#))
        let text = try ChildProcess.run(faro, ["outbox"], environment: env, timeout: 30)
        #expect(text.status == 0 && text.stdout.contains("pending: 1  failed: 1") && text.stdout.contains("HTTP 400"))
    }

    @Test(arguments: [2, 3]) func flushExitsZeroOnlyWhenNothingIsPending(_ generation: Int) throws {
        let home = try TemporaryDirectory("faro-cli")
        var env = home.xdgEnvironment
        env["FARO_BACKEND_PROTOCOL"] = String(generation)
        for i in 0..<5 {
            let r = try ChildProcess.run(
                faro, ["register", "--nombre", "N\(i)", "--email", "n@e.mx", "--telefono", "5512345678"],
                environment: env, timeout: 30)
            #expect(r.status == 0)
        }
        // No backend anywhere: exit 1 with the reason.
        env["FARO_BACKEND"] = ""
        let none = try ChildProcess.run(faro, ["outbox", "flush"], environment: env, timeout: 30)
        #expect(none.status == 1 && none.stderr.contains("--backend"))
        // An insecure URL is refused before anything is sent.
        let insecure = try ChildProcess.run(
            faro, ["outbox", "flush", "--backend", "http://example.com"], environment: env, timeout: 30)
        #expect(insecure.status == 1 && insecure.stderr.contains("HTTPS"))
        // A backend that refuses connections: still pending after the timeout, exit 1.
        let down = try BackendProcess(["--refuse-for", "30", "--protocol", String(generation)])
        let refused = try ChildProcess.run(
            faro, ["outbox", "flush", "--backend", down.url, "--timeout", "1"],
            environment: env, timeout: 30)
        #expect(refused.status == 1 && refused.stderr.contains("5 row(s) still pending"))
        // FARO_BACKEND names a working backend: everything is delivered, exit 0.
        let backend = try BackendProcess(["--protocol", String(generation)])
        env["FARO_BACKEND"] = backend.url
        let ok = try ChildProcess.run(faro, ["outbox", "flush", "--timeout", "20"], environment: env, timeout: 60)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("delivered: 5"))
        #expect(try BackendInserts.storedIDs(backend.url, table: "interested").count == 5)
        // Nothing pending: exit 0 at once.
        let again = try ChildProcess.run(faro, ["outbox", "flush", "--timeout", "5"], environment: env, timeout: 30)
        #expect(again.status == 0)
    }

    @Test(arguments: [2, 3]) func tooLargeInsertBodiesAreRefusedByTheBackend(_ generation: Int) throws {
        let backend = try BackendProcess(["--protocol", String(generation)])
        var configuration = try BackendConfiguration(baseURL: backend.url)
        configuration.backendProtocol = .fixed(try #require(BackendProtocol(rawValue: generation)))
        let client = try TablesClient(configuration: configuration)
        let big = #"{"id":"big","text":""# + String(repeating: "x", count: 2 << 20) + #""}"#
        let result = client.insert(table: "t", json: big)
        guard case .response(413, _) = result else {
            Issue.record("expected 413, got \(result)")
            return
        }
        guard case .rejected = DeliveryVerdict.classify(result) else {
            Issue.record("413 must be kept as failed")
            return
        }
    }
}
