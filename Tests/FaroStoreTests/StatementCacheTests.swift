import FaroStore
import FaroTestSupport
import Testing

/// The connection's statement cache: a statement released goes back clean (reset, no bindings), one in use is never
/// handed out twice, SQL built with values cannot grow the cache without bound, and a schema change is picked up.
@Suite struct StatementCacheTests {
    func connection() throws -> (TemporaryDirectory, SQLiteConnection) {
        let dir = try TemporaryDirectory("faro-statements")
        let c = try SQLiteConnection(path: dir.file("s.sqlite3"))
        try c.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
        return (dir, c)
    }

    @Test func aReusedStatementStartsClean() throws {
        let (dir, c) = try connection()
        try c.query("INSERT INTO t VALUES (?, ?)", [.integer(1), .text("uno")])
        try c.query("INSERT INTO t VALUES (?, ?)", [.integer(2), .text("dos")])
        #expect(c.cachedStatementCount == 1)
        do {
            let s = try c.prepare("SELECT v FROM t WHERE k = ?")
            try s.bind([.integer(2)])
            #expect(try s.step() && s.row() == [.text("dos")])
            // Released mid-iteration, bound to 2.
        }
        let again = try c.prepare("SELECT v FROM t WHERE k = ?")
        // No binding left over: a NULL parameter matches nothing.
        #expect(try again.step() == false)
        #expect(try c.query("SELECT v FROM t WHERE k = ?", [.integer(1)]) == [[.text("uno")]])
        _ = dir
    }

    @Test func aStatementInUseIsNotHandedOutTwice() throws {
        let (dir, c) = try connection()
        for k in 1...3 { try c.query("INSERT INTO t VALUES (?, ?)", [.integer(Int64(k)), .text("v\(k)")]) }
        let sql = "SELECT k FROM t ORDER BY k"
        let outer = try c.prepare(sql)
        var pairs: [[Int64]] = []
        while try outer.step() {
            let k = outer.row()[0].integer ?? 0
            // The same SQL inside the loop gets a statement of its own, and the outer one keeps its place.
            let inner = try c.query(sql).compactMap { $0[0].integer }
            pairs.append([k] + inner)
        }
        #expect(pairs == [[1, 1, 2, 3], [2, 1, 2, 3], [3, 1, 2, 3]])
        _ = dir
    }

    @Test func theCacheFollowsTheSchemaAndIsBounded() throws {
        let (dir, c) = try connection()
        try c.query("INSERT INTO t VALUES (0, 'x')")
        let star = "SELECT * FROM t WHERE k = 0"
        #expect(try c.query(star) == [[.integer(0), .text("x")]])
        let cached = c.cachedStatementCount
        try c.execute("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'nuevo'")
        // The cached statement is recompiled for the new schema.
        #expect(try c.query(star) == [[.integer(0), .text("x"), .text("nuevo")]])
        #expect(c.cachedStatementCount == cached)
        for k in 1..<200 { try c.query("INSERT INTO t (k, v) VALUES (\(k), 'x')") }
        #expect(c.cachedStatementCount == SQLiteConnection.statementCacheLimit)
        #expect(try c.query("SELECT count(*) FROM t") == [[.integer(200)]])
        _ = dir
    }
}
