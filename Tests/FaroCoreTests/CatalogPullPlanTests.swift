import Testing

@testable import FaroCore

/// A tables server in memory, with the ordering and paging faults real ones have, answering `CatalogPullPlan`'s
/// cursor semantics: rows after the cursor in (updatedAt, id) order, at most `top` of them.
struct SimulatedCatalogServer {
    enum Paging: Sendable {
        case honest
        case ignoresTop
        case caps(Int)
    }

    var rows: [(updatedAt: String, id: String)]
    var paging = Paging.honest

    func page(after cursor: CatalogCursor?, top: Int) -> [JSONValue] {
        let sorted = rows.sorted { a, b in
            let ta = CatalogTimestamp(a.updatedAt)?.milliseconds ?? 0
            let tb = CatalogTimestamp(b.updatedAt)?.milliseconds ?? 0
            if ta != tb { return ta < tb }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        let after = sorted.filter { row in
            guard let cursor, let instant = CatalogTimestamp(row.updatedAt) else { return true }
            return cursor.precedes(instant: instant, id: row.id)
        }
        let limit: Int
        switch paging {
        case .honest: limit = top
        case .ignoresTop: limit = after.count
        case .caps(let n): limit = min(n, top)
        }
        return after.prefix(limit).map { row in
            .object([
                ("id", .string(row.id)), ("updatedAt", .string(row.updatedAt)), ("major", .integer(1)),
                ("minor", .integer(2)), ("cliente", .string("c")), ("titulo", .string("t")), ("url", .string("u")),
            ])
        }
    }
}

@Suite struct CatalogPullPlanTests {
    /// 500 rows in groups of 7 sharing one timestamp, so groups straddle every page boundary.
    static let rows: [(updatedAt: String, id: String)] = (0..<500).map { i in
        (String(cFormat: "2026-01-01T00:%02ld:%02ld.000Z", (i / 7) / 60, (i / 7) % 60), String(cFormat: "r%04ld", i))
    }

    func pullAll(_ server: SimulatedCatalogServer, from cursor: CatalogCursor? = nil, pageSize: Int = 50) throws
        -> (ids: [String], pages: Int, cursor: CatalogCursor?)
    {
        var plan = CatalogPullPlan(cursor: cursor, pageSize: pageSize)
        var ids: [String] = []
        while !plan.isFinished {
            let page = try plan.receive(server.page(after: plan.cursor, top: plan.pageSize))
            for change in page.changes {
                if case .upsert(let place) = change { ids.append(place.id) }
            }
        }
        return (ids, plan.pages, plan.cursor)
    }

    @Test(arguments: [
        SimulatedCatalogServer.Paging.honest, .ignoresTop, .caps(13),
    ])
    func everyRowOnceWhateverThePaging(_ paging: SimulatedCatalogServer.Paging) throws {
        let server = SimulatedCatalogServer(rows: Self.rows, paging: paging)
        let result = try pullAll(server)
        #expect(result.ids == Self.rows.map(\.id))
        switch paging {
        case .honest: #expect(result.pages == 11)  // 10 full pages, then the empty one
        case .ignoresTop: #expect(result.pages == 2)
        case .caps(let n): #expect(result.pages == (500 + n - 1) / n + 1)
        }
        // A second pull from the stored cursor transfers nothing but the empty page.
        let again = try pullAll(server, from: result.cursor)
        #expect(again.ids.isEmpty && again.pages == 1)
    }

    @Test func aSecondPullFetchesExactlyTheRowsChangedSince() throws {
        var server = SimulatedCatalogServer(rows: Self.rows)
        let first = try pullAll(server)
        // 60 rows change at one new instant (sharing it across two pages), 3 more a millisecond later.
        let changed = Set(stride(from: 0, to: 500, by: 8).prefix(60).map { String(cFormat: "r%04ld", $0) })
        server.rows = server.rows.map { changed.contains($0.id) ? ("2026-02-01T00:00:00.000Z", $0.id) : $0 }
        server.rows += [("2026-02-01T00:00:00.001Z", "a1"), ("2026-02-01T00:00:00.001Z", "a2")]
        let second = try pullAll(server, from: first.cursor)
        #expect(second.ids == changed.sorted() + ["a1", "a2"])
        #expect(second.pages == 3)
    }

    @Test func theQueryCarriesTheCursorOrderPageSizeAndDeletedRows() {
        #expect(
            CatalogPullPlan(cursor: nil, pageSize: 50).nextQuery
                == "$orderby=updatedAt%2Cid&$top=50&__includeDeleted=true")
        let after = CatalogPullPlan(cursor: CatalogCursor(updatedAt: "2026-01-01T00:00:00.123Z", id: "r1")).nextQuery
        #expect(after.hasPrefix("$filter=%28updatedAt%20gt%20datetimeoffset%272026-01-01T00%3A00%3A00.123Z%27%29"))
        // A whole second is read again (a clock that keeps seconds may stamp a later change with it).
        let second = CatalogPullPlan(cursor: CatalogCursor(updatedAt: "2026-01-01T00:00:00Z", id: "r1")).nextQuery
        #expect(second.hasPrefix("$filter=updatedAt%20ge%20datetimeoffset%272026-01-01T00%3A00%3A00Z%27&"))
        #expect(CatalogPullPlan(cursor: nil, pageSize: 5000).pageSize == 1000)
    }

    @Test func aServerThatIgnoresTheFilterOrTheOrderStopsThePull() throws {
        let rows = SimulatedCatalogServer(rows: Self.rows).page(after: nil, top: 50)
        var plan = CatalogPullPlan(cursor: nil)
        _ = try plan.receive(rows)
        // The same page again: the server ignored the cursor.
        #expect(throws: CatalogPullPlan.PageProblem.noProgress) { try plan.receive(rows) }
        var unsorted = CatalogPullPlan(cursor: nil)
        #expect(throws: CatalogPullPlan.PageProblem.self) { try unsorted.receive(rows.reversed()) }
    }

    @Test func thePageLimitEndsAPullWhereItStands() throws {
        let server = SimulatedCatalogServer(rows: Self.rows)
        var plan = CatalogPullPlan(cursor: nil, pageSize: 50, maxPages: 3)
        var pages = 0
        while !plan.isFinished {
            _ = try plan.receive(server.page(after: plan.cursor, top: plan.pageSize))
            pages += 1
        }
        #expect(pages == 3 && plan.cursor?.id == "r0149")
    }
}
