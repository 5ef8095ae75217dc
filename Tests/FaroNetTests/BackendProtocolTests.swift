import FaroCore
import FaroCurl
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// The two protocol generations against faro-backend `--protocol 2|3` and canned answers: detection and memory of
/// the generation, the 3.0.0 shapes, `nextLink` rules, 409 on 3.0.0, and the connection probe.
@Suite(.serialized) struct BackendProtocolTests {
    let table = "catalogo"

    func catalogSync(_ url: String, _ db: FaroDatabase, setting: BackendProtocolSetting = .auto) throws -> CatalogSync {
        var configuration = try BackendConfiguration(baseURL: url)
        configuration.tables.catalog = table
        configuration.backendProtocol = setting
        return CatalogSync(database: db, client: try TablesClient(configuration: configuration))
    }

    /// `auto` learns the generation from the first listing, remembers it per backend URL (the next pull asks once),
    /// and learns again when the server at that URL changes generation.
    @Test func autoLearnsRemembersAndLearnsAgain() throws {
        let dir = try TemporaryDirectory("faro-protocol")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 300), to: dir.file("rows.json"))
        let serve = ["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")]
        var backend: BackendProcess? = try BackendProcess(generation: 3, serve)
        let port = try #require(backend?.port)
        let url = try #require(backend?.url)
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))

        let first = try catalogSync(url, db).run()
        #expect(first.generation == .v3 && first.added == 300)
        #expect(try db.catalog.generation(baseURL: url) == .v3)
        let remembered = try catalogSync(url, db).run()
        #expect(remembered.generation == .v3 && remembered.pages == 1)  // one request, in 3.0.0 from the start

        // The same URL now serves 2.0.0 (the same rows, ten of them changed).
        backend = nil
        let ten = (0..<10).map { i -> JSONValue in
            .object([("id", .string(String(cFormat: "b%05ld", i * 7))), ("titulo", .string("Otra vez \(i)"))])
        }
        try CatalogFixture.write(table, ten, to: dir.file("ten.json"))
        try CatalogFixture.apply(dir.file("ten.json"), to: dir.file("backend.sqlite3"))
        backend = try BackendProcess(generation: 2, Array(serve.prefix(2)) + ["--port", String(port)])
        let again = try catalogSync(url, db).run()
        #expect(again.generation == .v2 && again.updated == 10)
        #expect(try db.catalog.generation(baseURL: url) == .v2)
        let server = try CatalogFixture.serverPlaces(try #require(backend), table: table)
        #expect(try db.catalog.places(source: catalogSync(url, db).source).sorted { $0.id < $1.id } == server)
    }

    /// A setting that names the other generation gets a message naming the one the server speaks, and nothing
    /// local changes.
    @Test(arguments: [2, 3]) func aFixedGenerationAgainstTheOtherNamesTheServers(_ generation: Int) throws {
        let backend = try BackendProcess(generation: generation)
        let dir = try TemporaryDirectory("faro-protocol")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let other = try #require(BackendProtocol(rawValue: 5 - generation))
        var configuration = try backend.configuration()
        configuration.backendProtocol = .fixed(other)
        let sync = CatalogSync(database: db, client: try TablesClient(configuration: configuration))
        let speaks = "speaks tables protocol \(generation).0.0"
        do {
            _ = try sync.run()
            Issue.record("the pull must stop")
        } catch {
            #expect(
                "\(error)".contains(speaks) && "\(error)".contains("backend-protocol is set to \(other.rawValue)"),
                "\(error)")
        }
        #expect(try db.catalog.count(source: sync.source) == 0 && db.catalog.cursor(source: sync.source) == nil)
        #expect(
            BackendProbe.run(configuration)
                == .unusable(
                    TablesError.protocolMismatch(
                        setting: other, server: try #require(BackendProtocol(rawValue: generation))
                    ).description))
    }

    /// ASP.NET Core Datasync's spelling: `nextLink` as an absolute URL on the same host, `updatedAt` with `+00:00`.
    @Test func absoluteNextLinksAndOffsetTimestamps() throws {
        let dir = try TemporaryDirectory("faro-protocol")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 1_000), to: dir.file("rows.json"))
        let backend = try BackendProcess(
            generation: 3,
            [
                "--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json"), "--next-link", "absolute",
                "--timestamps", "offset", "--page-cap", "64",
            ])
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try catalogSync(backend.url, db, setting: .fixed(.v3))
        let report = try sync.run()
        #expect(report.added == 1_000 && report.pages == expectedPages(rows: 1_000, generation: 3, cap: 64))
        let mine = try db.catalog.places(source: sync.source).sorted { $0.id < $1.id }
        #expect(mine == (try CatalogFixture.serverPlaces(backend, table: table)))
        #expect(mine.allSatisfy { $0.updatedAt.hasSuffix("+00:00") })
        #expect(try db.catalog.cursor(source: sync.source)?.updatedAt.hasSuffix("+00:00") == true)
        #expect(try sync.run().rows == 0)
    }

    /// A row updated on a 3.0.0 server between two `nextLink` pages moves every later row one place: the overlap
    /// row shows it, the next page is asked for from the cursor, and no row is skipped.
    @Test func aRowUpdatedBetweenTwoNextLinkPagesIsNotASkip() throws {
        let dir = try TemporaryDirectory("faro-protocol")
        try CatalogFixture.write(table, CatalogFixture.rows(count: 500), to: dir.file("rows.json"))
        let backend = try BackendProcess(
            generation: 3, ["--database", dir.file("backend.sqlite3"), "--load", dir.file("rows.json")])
        var configuration = try backend.configuration(generation: 3)
        configuration.tables.catalog = table
        let client = try TablesClient(configuration: configuration)
        var plan = CatalogPullPlan(cursor: nil, generation: .v3)
        var ids: Set<String> = []
        while !plan.isFinished {
            let response: Result<CurlResponse, TablesError>
            switch plan.next {
            case .query(let query): response = client.catalogPageResponse(query: query)
            case .link(let url, _): response = client.catalogLinkResponse(url: url)
            }
            let page = try TablesClient.listPage(response)
            let received = try plan.receive(page.rows, nextLink: page.nextLink, tableURL: client.tableURL(table))
            for case .upsert(let place) in received.changes { ids.insert(place.id) }
            if plan.pages == 2 {
                // b00005 was in the first page; on the server every row after it moves one place up.
                try CatalogFixture.write(
                    table, [.object([("id", .string("b00005")), ("titulo", .string("Movida"))])],
                    to: dir.file("move.json"))
                try CatalogFixture.apply(dir.file("move.json"), to: dir.file("backend.sqlite3"))
            }
        }
        #expect(plan.restarts == 1)
        #expect(ids.count == 500)
    }

    /// Answers no tables server gives, from a canned server: each is a clear error and changes nothing local.
    @Test(arguments: [
        (#"{"items":[ROW],"count":2,"nextLink":"http://evil.example/tables/catalogo?$skip=1"}"#, "another host"),
        (#"{"items":[ROW],"count":2,"nextLink":"https://127.0.0.1:PORT/tables/catalogo?$skip=1"}"#, "another host"),
        (#"{"items":[ROW],"count":2,"nextLink":"/tables/interested?$skip=1"}"#, "away from the catalog table"),
        (#"{"items":[ROW,{"id":"b2","major":1}],"count":2,"nextLink":null}"#, "refused whole"),
        (#"{"items":[{"updatedAt":"2026-01-01T00:00:00.100Z"}],"count":1,"nextLink":null}"#, "without an id"),
        (#"{"value":[ROW]}"#, "neither a 2.0.0 array nor a 3.0.0"),
        (#"{"items":[ROW],"count":"2","nextLink":null}"#, "count"),
    ])
    func answersOfNoTablesServerChangeNothing(_ answer: String, _ reason: String) throws {
        let row =
            #"{"id":"b1","updatedAt":"2026-01-01T00:00:00.100Z","version":"AQ==","deleted":false,"major":1,"#
            + #""minor":2,"cliente":"c","titulo":"t","url":"u"}"#
        let server = try CannedServer { port in
            let body = answer.replacing("ROW", with: row).replacing("PORT", with: String(port))
            return CannedServer.http(
                status: "200 OK", headers: ["Content-Type: application/json"], body: Array(body.utf8))
        }
        let dir = try TemporaryDirectory("faro-protocol")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try catalogSync(server.url, db)
        do {
            _ = try sync.run()
            Issue.record("the pull must stop")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
        #expect(try db.catalog.count(source: sync.source) == 0 && db.catalog.cursor(source: sync.source) == nil)
    }

    /// A server that sends the same `nextLink` again is stopped, not followed forever.
    @Test func aNextLinkLoopIsStoppedAndReported() throws {
        let row =
            #"{"id":"b1","updatedAt":"2026-01-01T00:00:00.100Z","version":"AQ==","deleted":false,"major":1,"#
            + #""minor":2,"cliente":"c","titulo":"t","url":"u"}"#
        let body = #"{"items":["# + row + #"],"count":5,"nextLink":"$skip=1"}"#
        let server = try CannedServer(
            response: CannedServer.http(
                status: "200 OK", headers: ["Content-Type: application/json"], body: Array(body.utf8)))
        let dir = try TemporaryDirectory("faro-protocol")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        do {
            _ = try catalogSync(server.url, db).run()
            Issue.record("the pull must stop")
        } catch {
            #expect("\(error)".contains("the same nextLink twice"), "\(error)")
        }
        // The link once: repeated, it is not asked for again, not even ahead of reading the page.
        #expect(server.requests.filter { $0.contains("$skip=0 ") }.count == 1, "\(server.requests)")
    }

    /// The next page's request goes out while a page is read, guessed from its bytes; the page as read decides. A
    /// row with a `nextLink` of its own after the answer's misleads the guess: the guessed request is dropped, the
    /// answer's link is followed, and every row arrives once.
    @Test func aMisleadingNextLinkGuessIsDroppedForTheAnswersOwn() throws {
        @Sendable func row(_ n: Int, _ extra: String = "") -> String {
            #"{"id":"b\#(n)","updatedAt":"2026-01-01T00:00:0\#(n).100Z","version":"AQ==","deleted":false,"#
                + #""major":1,"minor":\#(n),"cliente":"c","titulo":"t","url":"u"\#(extra)}"#
        }
        let server = try CannedServer { _, line in
            let body: String
            if line.contains("skip=1") {
                body = #"{"items":["# + row(2) + "," + row(3) + #"],"count":3,"nextLink":null}"#
            } else if line.contains("skip=") {
                body = #"{"items":[],"count":3,"nextLink":null}"#
            } else {
                body =
                    #"{"nextLink":"$skip=2","items":["# + row(1, #","nextLink":"$skip=50""#) + "," + row(2)
                    + #"],"count":3}"#
            }
            return CannedServer.http(
                status: "200 OK", headers: ["Content-Type: application/json"], body: Array(body.utf8))
        }
        let dir = try TemporaryDirectory("faro-protocol")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let sync = try catalogSync(server.url, db, setting: .fixed(.v3))
        let report = try sync.run()
        #expect(report.added == 3 && report.pages == 2, "\(report)")
        #expect(Set(try db.catalog.places(source: sync.source).map(\.id)) == ["b1", "b2", "b3"])
        let asked = server.requests
        #expect(asked.contains { $0.contains("$skip=1 ") }, "\(asked)")
        #expect(asked.filter { $0.contains("$skip=1 ") }.count == 1, "\(asked)")
    }

    /// On 3.0.0 a 409 is delivered only when the stored row is the one Faro sent; on 2.0.0 it means delivered.
    @Test(arguments: [2, 3]) func a409IsDeliveredOnlyWhenTheStoredRowIsTheOneSent(_ generation: Int) throws {
        let backend = try BackendProcess(generation: generation)
        let client = try TablesClient(configuration: try backend.configuration(generation: generation))
        let sent = #"{"id":"r1","cliente":"Café","calificacion":4}"#
        #expect(client.insert(table: "rateme", json: sent) == .response(status: 201, message: ""))
        let stored = try #require(try client.item(table: "rateme", id: "r1"))
        #expect((stored["createdAt"] == nil) == (generation == 3))  // 3.0.0 has no createdAt
        #expect(stored["version"]?.stringValue?.count == (generation == 3 ? 24 : 12))
        let resent = client.insert(table: "rateme", json: #"{"id":"r1","calificacion":4.0,"cliente":"Café"}"#)
        #expect(DeliveryVerdict.classify(resent) == .delivered)
        let other = client.insert(table: "rateme", json: #"{"id":"r1","cliente":"Café","calificacion":2}"#)
        if generation == 3 {
            #expect(
                other
                    == .conflict(reason: "the backend holds another row with id r1: its calificacion is 4, Faro sent 2")
            )
            let difference = "the backend holds another row with id r1: its calificacion is 4, Faro sent 2"
            #expect(DeliveryVerdict.classify(other) == .rejected(reason: .conflict(difference: difference)))
            #expect(DeliveryVerdict.classify(other).reason?.english == "HTTP 409: " + difference)
        } else {
            #expect(DeliveryVerdict.classify(other) == .delivered)
        }
    }

    /// The outbox on 3.0.0: a row whose id the backend holds with other content is kept as failed with the reason.
    @Test func theOutboxKeepsAConflictingRowAsFailedOn3() throws {
        let backend = try BackendProcess(generation: 3)
        let dir = try TemporaryDirectory("faro-protocol")
        let db = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let site = SiteIdentity(cliente: "Café", titulo: "T", url: "http://s/1")
        let row = try db.outbox.submit(
            .rateme(SiteRating(site: site, imei: "i", calificacion: 5, fechahora: "2026-11-29T14:03:07.123Z")), now: 0,
            backend: backend.url)
        let client = try TablesClient(configuration: try backend.configuration(generation: 3))
        #expect(client.insert(table: "rateme", json: #"{"id":"\#(row.id)","calificacion":1}"#).status == 201)
        let pass = OutboxDeliveryPass(
            database: db, client: try TablesClient(configuration: try backend.configuration()),
            schedule: .interactive, clock: SystemOutboxClock())
        try db.catalog.setGeneration(.v3, baseURL: backend.url, now: 0)  // learned by an earlier catalog pull
        let outcome = try pass.run()
        #expect(outcome.delivered == 0)
        let failed = try #require(try db.outbox.row(id: row.id))
        #expect(
            failed.state == .failed && failed.lastError?.contains("HTTP 409: the backend holds another row") == true)
    }

    @Test(arguments: [2, 3]) func theProbeSaysWhatItFound(_ generation: Int) throws {
        let backend = try BackendProcess(generation: generation)
        let speaks = try #require(BackendProtocol(rawValue: generation))
        #expect(BackendProbe.run(baseURL: backend.url) == .connected(places: 8, generation: speaks))
        #expect(
            BackendProbe.run(baseURL: backend.url, setting: .fixed(speaks))
                == .connected(places: 8, generation: speaks))
        let keyed = try BackendProcess(generation: generation, ["--app-key", "k"])
        guard case .refused(401, let message) = BackendProbe.run(baseURL: keyed.url) else {
            Issue.record("a refused key must be .refused")
            return
        }
        #expect(message.contains("ZUMO-API-KEY"))
        #expect(BackendProbe.run(baseURL: keyed.url, appKey: "k") == .connected(places: 8, generation: speaks))
        guard case .notHTTPS = BackendProbe.run(baseURL: "http://example.com") else {
            Issue.record("plain http to another computer must be refused before sending")
            return
        }
        let port: Int
        do { port = try BackendProcess().port }
        guard case .noAnswer = BackendProbe.run(baseURL: "http://127.0.0.1:\(port)", timeout: 3) else {
            Issue.record("a closed port must be .noAnswer")
            return
        }
        guard case .unusable(let why) = BackendProbe.run(baseURL: backend.url, catalogTable: "no-such-table") else {
            Issue.record("a table the backend lacks must be .unusable")
            return
        }
        #expect(!why.isEmpty)
    }
}

extension DeliveryAttemptResult {
    /// The HTTP status of a response (0 for anything else).
    var status: Int { if case .response(let status, _) = self { return status } else { return 0 } }
}
