import Testing

@testable import FaroCore

/// A 3.0.0 tables server in memory: a query lists the rows after a cursor in (updatedAt, id) order, capped at `cap`
/// rows, and its `nextLink` is the same query with `$skip` moved on (as the Community Toolkit writes it: a bare
/// query string). Rows can change between two pages, as on a live server.
final class SimulatedDatasyncServer {
    var rows: [(updatedAt: String, id: String)]
    let cap: Int
    private var chains: [CatalogCursor?] = []
    private(set) var requests = 0

    init(rows: [(updatedAt: String, id: String)], cap: Int = 100) {
        self.rows = rows
        self.cap = cap
    }

    static let table = "https://example.net/tables/beacons"

    /// The answer to the plan's next request: rows and `nextLink`.
    func answer(_ request: CatalogPullPlan.Request, cursor: CatalogCursor?) -> (rows: [JSONValue], nextLink: String?) {
        requests += 1
        let chain: Int
        var skip = 0
        switch request {
        case .query:
            chains.append(cursor)
            chain = chains.count - 1
        case .link(let url, _):
            let query = url.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
            var found = 0
            for part in query.split(separator: "&") {
                let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.first == "chain" { found = Int(pair.last ?? "") ?? 0 }
                if pair.first == "$skip" { skip = Int(pair.last ?? "") ?? 0 }
            }
            chain = found
        }
        let after = sorted().filter { row in
            guard let from = chains[chain], let instant = CatalogTimestamp(row.updatedAt) else { return true }
            return from.precedes(instant: instant, id: row.id)
        }
        let page = after.dropFirst(skip).prefix(cap)
        let next = skip + page.count < after.count ? "chain=\(chain)&$count=true&$skip=\(skip + page.count)" : nil
        return (page.map(Self.json), next)
    }

    func sorted() -> [(updatedAt: String, id: String)] {
        rows.sorted { a, b in
            let ta = CatalogTimestamp(a.updatedAt)?.milliseconds ?? 0
            let tb = CatalogTimestamp(b.updatedAt)?.milliseconds ?? 0
            if ta != tb { return ta < tb }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    /// Moves row `id` to a new `updatedAt` (an update on the server).
    func touch(_ id: String, at stamp: String) {
        rows = rows.map { $0.id == id ? (stamp, id) : $0 }
    }

    static func json(_ row: (updatedAt: String, id: String)) -> JSONValue {
        .object([
            ("id", .string(row.id)), ("updatedAt", .string(row.updatedAt)), ("major", .integer(1)),
            ("minor", .integer(2)), ("cliente", .string("c")), ("titulo", .string("t")), ("url", .string("u")),
        ])
    }
}

@Suite struct CatalogProtocolTests {
    /// 1,000 rows in groups of 150 sharing one timestamp: every group is larger than a page.
    static let rows: [(updatedAt: String, id: String)] = (0..<1000).map { i in
        (String(cFormat: "2026-01-01T00:00:%02ld.000Z", i / 150), String(cFormat: "r%04ld", i))
    }

    /// Pulls to the end; `between` runs after each page (the server may change).
    func pull(
        _ server: SimulatedDatasyncServer, from cursor: CatalogCursor? = nil, maxPages: Int = 10_000,
        between: (Int) -> Void = { _ in }
    ) throws -> (ids: [String], plan: CatalogPullPlan) {
        var plan = CatalogPullPlan(cursor: cursor, maxPages: maxPages, generation: .v3)
        var ids: [String] = []
        while !plan.isFinished {
            let answer = server.answer(plan.next, cursor: plan.cursor)
            let page = try plan.receive(
                answer.rows, nextLink: answer.nextLink, tableURL: SimulatedDatasyncServer.table)
            for change in page.changes {
                if case .upsert(let place) = change { ids.append(place.id) }
            }
            between(plan.pages)
        }
        return (ids, plan)
    }

    @Test func nextLinkPagesOverlapByOneRowAndEveryRowComesOnce() throws {
        let server = SimulatedDatasyncServer(rows: Self.rows)
        let result = try pull(server)
        #expect(result.ids == Self.rows.map(\.id))
        // 100 rows, then 99 new ones per page (each page starts with the last row of the one before).
        #expect(result.plan.pages == 1 + (900 + 98) / 99 && result.plan.restarts == 0)
        #expect(result.plan.cursor?.id == "r0999" && server.requests == result.plan.pages)
        // Nothing new: one request, no rows.
        let again = try pull(server, from: result.plan.cursor)
        #expect(again.ids.isEmpty && again.plan.pages == 1)
    }

    /// A row already received is updated during the pull: on the server every later row moves one place up, so
    /// following `$skip` as sent would skip one. The overlap row shows it, and the cursor asks again.
    @Test func aRowUpdatedDuringThePullShiftsNothingPastThePull() throws {
        let server = SimulatedDatasyncServer(rows: Self.rows)
        let result = try pull(server) { page in
            if page == 3 { server.touch("r0010", at: "2026-01-01T00:01:00.000Z") }
        }
        #expect(result.plan.restarts == 1)
        #expect(Set(result.ids) == Set(Self.rows.map(\.id)))
        #expect(result.ids.last == "r0010")  // its new version came at the end

        // The same change against a client that follows `nextLink` as sent loses a row: the test can fail.
        let naive = SimulatedDatasyncServer(rows: Self.rows)
        var link: String? = nil
        var seen: [String] = []
        var cursor: CatalogCursor? = nil
        var requests = 0
        repeat {
            let request: CatalogPullPlan.Request =
                link.map { .link(url: "\(SimulatedDatasyncServer.table)?\($0)", overlap: cursor!) } ?? .query("")
            let answer = naive.answer(request, cursor: nil)
            seen += answer.rows.compactMap { $0["id"]?.stringValue }
            cursor = answer.rows.last.flatMap { CatalogPulledRow.read($0).position }
            link = answer.nextLink
            requests += 1
            if requests == 3 { naive.touch("r0010", at: "2026-01-01T00:01:00.000Z") }
        } while link != nil && requests < 100
        #expect(Set(seen).count == Self.rows.count - 1)
    }

    /// A pull stopped after any page goes on from its cursor and ends with every row, whatever changed meanwhile.
    @Test(arguments: [1, 2, 3, 7]) func aPullStoppedBetweenAnyTwoPagesLosesNothing(_ pagesPerPull: Int) throws {
        let server = SimulatedDatasyncServer(rows: Self.rows, cap: 37)
        var cursor: CatalogCursor?
        var ids: Set<String> = []
        for round in 0..<200 {
            let result = try pull(server, from: cursor, maxPages: pagesPerPull)
            ids.formUnion(result.ids)
            cursor = result.plan.cursor
            if round == 2 { server.touch("r0001", at: "2026-01-01T00:00:07.000Z") }
            if result.ids.isEmpty, round > 3 { break }
        }
        #expect(ids == Set(Self.rows.map(\.id)))
        #expect(cursor?.id == "r0001")
    }

    @Test func aBadNextLinkALoopOrARowWithoutPositionStopsThePull() throws {
        let rows = [SimulatedDatasyncServer.json(("2026-01-01T00:00:00.000Z", "a"))]
        var offHost = CatalogPullPlan(cursor: nil, generation: .v3)
        #expect(
            throws: CatalogPullPlan.PageProblem.nextLink(.offBackend("https://evil.example/tables/beacons?$skip=1"))
        ) {
            try offHost.receive(
                rows, nextLink: "https://evil.example/tables/beacons?$skip=1", tableURL: SimulatedDatasyncServer.table)
        }
        var loop = CatalogPullPlan(cursor: nil, generation: .v3)
        _ = try loop.receive(rows, nextLink: "$skip=1", tableURL: SimulatedDatasyncServer.table)
        #expect(loop.next == .link(url: SimulatedDatasyncServer.table + "?$skip=0", overlap: loop.cursor!))
        #expect(throws: CatalogPullPlan.PageProblem.nextLinkLoop("$skip=1")) {
            try loop.receive(rows, nextLink: "$skip=1", tableURL: SimulatedDatasyncServer.table)
        }
        for generation in BackendProtocol.allCases {
            var refused = CatalogPullPlan(cursor: nil, generation: generation)
            let noStamp = JSONValue.object([("id", .string("b")), ("major", .integer(1))])
            #expect(throws: CatalogPullPlan.PageProblem.self) { try refused.receive(rows + [noStamp]) }
            #expect(refused.cursor == nil, "nothing of a refused page moves the cursor")
            let noID = JSONValue.object([("updatedAt", .string("2026-01-01T00:00:01.000Z"))])
            #expect(throws: CatalogPullPlan.PageProblem.rowWithoutPosition("a row without an id (row 2)")) {
                try refused.receive(rows + [noID])
            }
        }
    }

    @Test func nextLinksResolveOnlyOnTheConfiguredBackend() throws {
        let table = "https://faro.example.net/tables/beacons"
        #expect(try CatalogNextLink.resolve("$skip=100", tableURL: table) == table + "?$skip=100")
        #expect(try CatalogNextLink.resolve("?$skip=100", tableURL: table) == table + "?$skip=100")
        #expect(try CatalogNextLink.resolve(table + "?$skip=100", tableURL: table) == table + "?$skip=100")
        #expect(
            try CatalogNextLink.resolve("HTTPS://Faro.Example.NET:443/tables/beacons?$skip=1", tableURL: table)
                == table + "?$skip=1")
        #expect(try CatalogNextLink.resolve("/tables/beacons?$skip=1", tableURL: table) == table + "?$skip=1")
        for bad in [
            "http://faro.example.net/tables/beacons?$skip=1", "https://other.example.net/tables/beacons?$skip=1",
            "https://faro.example.net:8443/tables/beacons?$skip=1", "//evil.example/tables/beacons",
        ] {
            #expect(throws: CatalogNextLink.Problem.offBackend(bad)) {
                try CatalogNextLink.resolve(bad, tableURL: table)
            }
        }
        #expect(throws: CatalogNextLink.Problem.anotherPath("/tables/other?$skip=1")) {
            try CatalogNextLink.resolve("/tables/other?$skip=1", tableURL: table)
        }
        // The table's URL is kept as configured (a host written in capitals stays so).
        let capitals = "https://Faro.Example.NET/tables/beacons"
        #expect(try CatalogNextLink.resolve(table + "?$skip=1", tableURL: capitals) == capitals + "?$skip=1")
        #expect(CatalogNextLink.overlapping(table + "?a=1&%24skip=100&b=2") == table + "?a=1&%24skip=99&b=2")
        #expect(CatalogNextLink.overlapping(table + "?$skiptoken=abc") == nil)
        #expect(CatalogNextLink.overlapping(table + "?$skip=0") == nil)
    }

    /// The link sent ahead of a page being read is picked out of its bytes: the last `"nextLink":` string, escapes
    /// read as JSON reads them; null, none or a cut body give nothing.
    @Test func aNextLinkIsPeekedFromTheAnswersBytes() {
        func peek(_ text: String) -> String? { CatalogNextLink.peek(Array(text.utf8)) }
        #expect(
            peek(#"{"items":[{"id":"a"}],"count":3,"nextLink":"$skip=100&$count=true"}"#) == "$skip=100&$count=true")
        #expect(
            peek(#"{"items":[], "count": null, "nextLink" : "https:\/\/h.example\/tables\/t?$skip=1\u0026$top=2"}"#)
                == "https://h.example/tables/t?$skip=1&$top=2")
        #expect(peek(#"{"items":[{"id":"a"}],"count":1,"nextLink":null}"#) == nil)
        #expect(peek(#"{"items":[{"id":"a"}],"count":1}"#) == nil)
        #expect(peek(#"{"items":[{"id":"a"}],"count":1,"nextLink":""}"#) == nil)
        #expect(peek(#"{"items":[{"id":"a"}],"count":1,"nextLink":"$skip=1"#) == nil)
        #expect(peek(#"{"items":[{"titulo":"\"nextLink\":\"$skip=9\""}],"nextLink":null}"#) == nil)
        // A row with a nextLink of its own after the answer's: only a guess, which the parsed page overrules.
        #expect(peek(#"{"nextLink":"$skip=2","items":[{"nextLink":"$skip=50"}]}"#) == "$skip=50")
        #expect(peek("") == nil)
    }

    @Test func eachGenerationSpellsItsQueryAndDateLiteral() {
        let cursor = CatalogCursor(updatedAt: "2024-08-23T20:22:54.291+00:00", id: "o'k")
        #expect(
            cursor.filter(for: .v3)
                == "(updatedAt gt cast(2024-08-23T20:22:54.291+00:00,Edm.DateTimeOffset)) or ((updatedAt eq "
                + "cast(2024-08-23T20:22:54.291+00:00,Edm.DateTimeOffset)) and (id gt 'o''k'))")
        #expect(cursor.filter(for: .v2).contains("datetimeoffset'2024-08-23T20:22:54.291+00:00'"))
        let v3 = CatalogPullPlan(cursor: cursor, generation: .v3).nextQuery
        #expect(v3.hasSuffix("&$orderby=updatedAt%2Cid&$count=true&__includedeleted=true") && !v3.contains("$top"))
        #expect(v3.contains("%2B00%3A00"), "a + in a query value must be encoded, or it reads as a space")
        #expect(CatalogPullPlan(cursor: nil, generation: .v2).nextQuery.contains("$top=50"))
    }

    @Test func theShapeOfAListingNamesTheGeneration() throws {
        #expect(BackendProtocol.ofListAnswer(try JSONValue.parse("[]")) == .v2)
        #expect(BackendProtocol.ofListAnswer(try JSONValue.parse(#"{"results":[],"count":0}"#)) == .v2)
        #expect(BackendProtocol.ofListAnswer(try JSONValue.parse(#"{"items":[],"count":null,"nextLink":null}"#)) == .v3)
        #expect(BackendProtocol.ofListAnswer(try JSONValue.parse(#"{"value":[]}"#)) == nil)
        #expect(BackendProtocolSetting("auto") == .auto && BackendProtocolSetting("3") == .fixed(.v3))
        #expect(BackendProtocolSetting("2.0.0") == .fixed(.v2) && BackendProtocolSetting("4") == nil)
        #expect(BackendProtocolSetting.fixed(.v3).description == "3" && BackendProtocol.v3.version == "3.0.0")
    }

    @Test func timestampsOfEveryServerKindAreOneInstant() throws {
        let toolkit = try #require(CatalogTimestamp("2024-08-23T20:22:54.291Z"))
        #expect(CatalogTimestamp("2024-08-23T20:22:54.291+00:00") == toolkit)
        #expect(CatalogTimestamp("2024-08-23T20:22:54.2910000Z") == toolkit)
        let seconds = try #require(CatalogTimestamp("2024-08-23T20:22:54Z"))
        #expect(seconds < toolkit && seconds.description == "2024-08-23T20:22:54.000Z")
    }
}
