import FaroCore
import FaroStore
import FoundationEssentials

/// Why a table request was refused, with the HTTP status the real server answers.
struct TableError: Error {
    var status: Int
    var message: String
    /// The existing row, for 409.
    var existing: JSONValue?
}

/// How a server writes `updatedAt`: `….123Z` (Mobile Apps, the Community Toolkit), `….123+00:00` (ASP.NET Core
/// Datasync), or whole seconds `…07Z` (a clock that keeps seconds only: every stamp is truncated to the second).
enum TimestampStyle: String, CaseIterable {
    case milliseconds = "ms"
    case offset
    case seconds

    /// The stored spelling of `now` (truncated to the second for `seconds`).
    func stamp(_ now: Double) -> String {
        Fechahora.format(secondsSince1970: self == .seconds ? now.rounded(.down) : now)
    }

    /// A stored value as answers write it.
    func render(_ stored: String) -> String {
        switch self {
        case .milliseconds: return stored
        case .offset: return stored.hasSuffix("Z") ? String(stored.dropLast()) + "+00:00" : stored
        case .seconds:
            guard let dot = stored.firstIndex(of: "."), stored.hasSuffix("Z") else { return stored }
            return String(stored[..<dot]) + "Z"
        }
    }
}

/// The "dynamic schema" tables of azure-mobile-apps-node on SQLite: any valid table name, created on the first
/// insert, gaining a column whenever a new field appears. Column kinds (string, number, boolean) are remembered in
/// `__faro_columns` so booleans come back as `true`/`false`.
final class TableStore {
    static let systemColumns = ["createdAt", "updatedAt", "version", "deleted"]
    /// Fault: list answers carry at most this many rows whatever `$top` asks (a server with a smaller page cap:
    /// short pages, and no `Link` header since the page is not "full").
    var pageCap: Int?
    /// Fault: list answers carry every matching row at once (a server that ignores `$top`).
    var ignoreTop = false
    /// Fault: inserts whose JSON body contains this text always fail with 500 (a poisoned row).
    var poison: String?
    /// Fault: listing these tables is refused (403) unless the query looks one beacon up (`major eq …`).
    var refuseListing: Set<String> = []
    /// The protocol generation served: 2 (Mobile Apps) or 3 (Datasync: no `createdAt`, 16-byte versions).
    var generation = 2
    /// How `updatedAt` is written in answers (stored values are always `….123Z`).
    var timestamps = TimestampStyle.milliseconds
    private let db: SQLiteConnection
    private var random = SystemRandomNumberGenerator()
    /// table → (column → kind), in creation order.
    private var schema: [String: [(name: String, kind: String)]] = [:]

    init(database: SQLiteConnection) throws(StoreError) {
        db = database
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS __faro_columns (
                table_name TEXT NOT NULL, column_name TEXT NOT NULL, kind TEXT NOT NULL,
                PRIMARY KEY (table_name, column_name));
            """)
        try reloadSchema()
    }

    /// Reads the column kinds again (after a rolled-back transaction may have left the cache ahead of the file).
    private func reloadSchema() throws(StoreError) {
        schema = [:]
        for row in try db.query("SELECT table_name, column_name, kind FROM __faro_columns ORDER BY rowid") {
            guard let t = row[0].text, let c = row[1].text, let k = row[2].text else { continue }
            schema[t, default: []].append((c, k))
        }
        for row in try db.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        ) {
            if let t = row[0].text, schema[t] == nil { schema[t] = [] }
        }
    }

    /// A table or column name the server accepts: a letter, then letters, digits or `_`, at most 64.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64,
            first.properties.isAlphabetic, first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
            && !name.lowercased().hasPrefix("sqlite_")
    }

    static func quoted(_ name: String) -> String { "\"" + name + "\"" }

    func exists(_ table: String) -> Bool { schema[table] != nil }

    /// The SQL column for `name` (system or user column, case-insensitive), or nil.
    func column(_ table: String, _ name: String) -> String? {
        if name.lowercased() == "id" { return "\"id\"" }
        if let s = TableStore.systemColumns.first(where: { $0.lowercased() == name.lowercased() }) {
            return TableStore.quoted(s)
        }
        return schema[table]?.first(where: { $0.name.lowercased() == name.lowercased() }).map {
            TableStore.quoted($0.name)
        }
    }

    private func kind(of value: JSONValue) -> String {
        switch value {
        case .bool: return "boolean"
        case .integer, .number: return "number"
        default: return "string"
        }
    }

    private func ensureTable(_ table: String, fields: [(String, JSONValue)]) throws(StoreError) {
        if schema[table] == nil {
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS \(TableStore.quoted(table)) (
                    "id" TEXT PRIMARY KEY NOT NULL, "createdAt" TEXT NOT NULL, "updatedAt" TEXT NOT NULL,
                    "version" TEXT NOT NULL, "deleted" INTEGER NOT NULL DEFAULT 0)
                """)
            try createSyncIndex(table)
            schema[table] = []
        }
        for (name, value) in fields where name != "id" && column(table, name) == nil {
            try db.execute("ALTER TABLE \(TableStore.quoted(table)) ADD COLUMN \(TableStore.quoted(name))")
            let k = kind(of: value)
            try db.query(
                "INSERT INTO __faro_columns (table_name, column_name, kind) VALUES (?, ?, ?)",
                [.text(table), .text(name), .text(k)])
            schema[table, default: []].append((name, k))
        }
    }

    private func sqlValue(_ value: JSONValue) -> SQLiteValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .integer(let n): return .integer(n)
        case .number(let d): return .real(d)
        case .string(let s): return .text(s)
        case .array, .object: return .text(value.serialized)
        }
    }

    /// Checks an insert body the way the real server does: a JSON object of flat values, a string id if any,
    /// no system columns, valid field names.
    func validateInsert(_ body: JSONValue) throws(TableError) -> [(String, JSONValue)] {
        guard let fields = body.objectMembers else {
            throw TableError(status: 400, message: "The request body must be a JSON object.")
        }
        for (name, value) in fields {
            if TableStore.systemColumns.contains(where: { $0.lowercased() == name.lowercased() }) {
                if generation == 3 { continue }  // a 3.0.0 server sets them itself, whatever was sent
                throw TableError(status: 400, message: "Cannot insert item with property '\(name)' as it is reserved")
            }
            if name.lowercased() == "id" {
                switch value {
                case .null: continue
                case .string(let s) where !s.isEmpty && s.utf8.count <= 255: continue
                default: throw TableError(status: 400, message: "The item id must be a non-empty string.")
                }
            }
            guard TableStore.isValidName(name) else {
                throw TableError(status: 400, message: "'\(name)' is not a valid property name.")
            }
            switch value {
            case .array, .object:
                throw TableError(status: 400, message: "Property '\(name)' must be a string, number, boolean or null.")
            default: break
            }
        }
        return fields
    }

    /// The index incremental pulls use (`$filter` on updatedAt, `$orderby=updatedAt,id`).
    private func createSyncIndex(_ table: String) throws(StoreError) {
        try db.execute(
            "CREATE INDEX IF NOT EXISTS \(TableStore.quoted(table + "__sync")) ON \(TableStore.quoted(table)) "
                + "(\"updatedAt\", \"id\")")
    }

    /// Writes a new row: the system columns (created and updated at `stamp`, not deleted) and the user's fields,
    /// each in its column. The table and its columns exist already (`ensureTable`).
    private func insertRow(
        table: String, id: String, stamp: String, version: String, fields: [(String, JSONValue)]
    ) throws(StoreError) {
        var names = ["\"id\"", "\"createdAt\"", "\"updatedAt\"", "\"version\"", "\"deleted\""]
        var values: [SQLiteValue] = [.text(id), .text(stamp), .text(stamp), .text(version), .integer(0)]
        for (name, value) in fields {
            names.append(column(table, name) ?? TableStore.quoted(name))
            values.append(sqlValue(value))
        }
        let marks = values.map { _ in "?" }.joined(separator: ", ")
        try db.query(
            "INSERT INTO \(TableStore.quoted(table)) (\(names.joined(separator: ", "))) VALUES (\(marks))", values)
    }

    /// Inserts one item; returns the stored row. 409 (with the existing row) when the id exists.
    func insert(table: String, body: JSONValue, now: Double) throws(TableError) -> JSONValue {
        if let poison, body.serialized.contains(poison) {
            throw TableError(status: 500, message: "Internal error (injected fault: this row always fails)")
        }
        let fields = try validateInsert(body)
        let id = fields.last(where: { $0.0.lowercased() == "id" })?.1.stringValue ?? OutboxRowID.make(using: &random)
        let userFields = fields.filter { field in
            field.0.lowercased() != "id"
                && !TableStore.systemColumns.contains { $0.lowercased() == field.0.lowercased() }
        }
        do {
            return try db.transaction { () throws(StoreError) -> Result<JSONValue, TableError> in
                try ensureTable(table, fields: userFields)
                if let existing = try row(table: table, id: id, includeDeleted: true) {
                    return .failure(
                        TableError(
                            status: 409, message: "An item with id '\(id)' already exists.",
                            existing: existing))
                }
                let stamp = timestamps.stamp(now)
                let version = newVersion()
                try insertRow(table: table, id: id, stamp: stamp, version: version, fields: userFields)
                guard let stored = try row(table: table, id: id, includeDeleted: true) else {
                    return .failure(TableError(status: 500, message: "The item vanished after insert."))
                }
                return .success(stored)
            }.get()
        } catch let error as TableError {
            throw error
        } catch {
            try? reloadSchema()
            throw TableError(status: 500, message: "Storage failed: \(error)")
        }
    }

    /// Upserts rows as they are (for seeding the demo catalog at startup).
    func seed(table: String, rows: [[(String, JSONValue)]], now: Double) throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            for fields in rows {
                let user = fields.filter { $0.0 != "id" }
                try ensureTable(table, fields: user)
                guard let id = fields.first(where: { $0.0 == "id" })?.1.stringValue else { continue }
                try db.query("DELETE FROM \(TableStore.quoted(table)) WHERE id = ?", [.text(id)])
                let stamp = timestamps.stamp(now)
                var names = ["\"id\"", "\"createdAt\"", "\"updatedAt\"", "\"version\"", "\"deleted\""]
                var values: [SQLiteValue] = [.text(id), .text(stamp), .text(stamp), .text(newVersion()), .integer(0)]
                for (name, value) in user {
                    names.append(TableStore.quoted(name))
                    values.append(sqlValue(value))
                }
                let marks = values.map { _ in "?" }.joined(separator: ", ")
                try db.query(
                    "INSERT INTO \(TableStore.quoted(table)) (\(names.joined(separator: ", "))) VALUES (\(marks))",
                    values)
            }
        }
    }

    /// A new row version: base64 of 8 random bytes (2.0.0) or 16 (3.0.0).
    func newVersion() -> String {
        var bytes: [UInt8] = []
        for _ in 0..<(generation == 3 ? 2 : 1) {
            var n = random.next()
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: n))
                n >>= 8
            }
        }
        return Data(bytes).base64EncodedString()
    }

    /// One row by id (404 is the caller's business).
    func row(table: String, id: String, includeDeleted: Bool = false) throws(StoreError) -> JSONValue? {
        guard exists(table) else { return nil }
        let statement = try db.prepare(
            "SELECT * FROM \(TableStore.quoted(table)) WHERE id = ?"
                + (includeDeleted ? "" : " AND deleted = 0"))
        try statement.bind([.text(id)])
        guard try statement.step() else { return nil }
        return render(table: table, names: statement.columnNames, values: statement.row())
    }

    /// Soft-deletes one row (`DELETE /tables/{table}/{id}`): 404 when there is none, 410 when it is deleted already
    /// (3.0.0), 412 with the stored row when `ifMatch` (an ETag, quoted or not) is not its version.
    func delete(table: String, id: String, ifMatch: String?, now: Double) throws(TableError) -> JSONValue {
        do {
            return try db.transaction { () throws(StoreError) -> Result<JSONValue, TableError> in
                guard let stored = try row(table: table, id: id, includeDeleted: true) else {
                    return .failure(TableError(status: 404, message: "The item does not exist"))
                }
                if stored["deleted"] == .bool(true) {
                    return .failure(
                        generation == 3
                            ? TableError(status: 410, message: "The item was deleted", existing: stored)
                            : TableError(status: 404, message: "The item does not exist"))
                }
                if let ifMatch, ifMatch != "*" {
                    let wanted = ifMatch.trimmed(["\"", " "])
                    if stored["version"]?.stringValue != wanted {
                        return .failure(
                            TableError(status: 412, message: "The version does not match", existing: stored))
                    }
                }
                try db.query(
                    "UPDATE \(TableStore.quoted(table)) SET deleted = 1, \"updatedAt\" = ?, \"version\" = ? WHERE id = ?",
                    [.text(timestamps.stamp(now)), .text(newVersion()), .text(id)])
                guard let deleted = try row(table: table, id: id, includeDeleted: true) else {
                    return .failure(TableError(status: 500, message: "The item vanished after delete."))
                }
                return .success(deleted)
            }.get()
        } catch let error as TableError {
            throw error
        } catch {
            throw TableError(status: 500, message: "Storage failed: \(error)")
        }
    }

    /// A query's answer: the page of rows and, when asked, the total count matching the filter.
    struct Page {
        var rows: [JSONValue]
        var totalCount: Int?
    }

    /// Runs a list query; options are already checked by `TableQuery`.
    func list(table: String, query: TableQuery) throws(TableError) -> Page {
        if refuseListing.contains(table), !(query.filter ?? "").lowercased().contains("major eq") {
            throw TableError(
                status: 403, message: "Listing the table '\(table)' is not allowed; look items up by major and minor.")
        }
        if !exists(table) { try? reloadSchema() }  // another process (`--load-only`) may have made it
        guard exists(table) else { return Page(rows: [], totalCount: query.inlineCount ? 0 : nil) }
        var conditions: [String] = []
        var parameters: [SQLiteValue] = []
        if !query.includeDeleted { conditions.append("deleted = 0") }
        if let text = query.filter {
            do {
                let f = try ODataFilter(try TableStore.timestampLiterals(text, generation: generation)) {
                    self.column(table, $0)
                }
                conditions.append(f.sql)
                parameters += f.parameters
            } catch {
                throw TableError(status: 400, message: error.description)
            }
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var order: [String] = []
        for (name, descending) in query.orderBy {
            guard let c = column(table, name) else {
                throw TableError(status: 400, message: "$orderby: could not find a property named '\(name)'")
            }
            order.append(c + (descending ? " DESC" : " ASC"))
        }
        order.append("rowid ASC")
        var selected = "*"
        if let select = query.select {
            var cols: [String] = []
            for name in select {
                guard let c = column(table, name) else {
                    throw TableError(status: 400, message: "$select: could not find a property named '\(name)'")
                }
                cols.append(c)
            }
            selected = cols.joined(separator: ", ")
        }
        let from = " FROM \(TableStore.quoted(table))"
        do {
            let statement = try db.prepare(
                "SELECT \(selected)\(from)\(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT ? OFFSET ?")
            var limit = Int64(query.top)
            if generation == 3 { limit = Int64(min(query.topGiven ?? Int.max, pageCap ?? TableQuery.defaultPageCap)) }
            if let pageCap { limit = min(limit, Int64(pageCap)) }
            if ignoreTop { limit = -1 }
            try statement.bind(parameters + [.integer(limit), .integer(Int64(query.skip))])
            var rows: [JSONValue] = []
            let names = statement.columnNames
            while try statement.step() { rows.append(render(table: table, names: names, values: statement.row())) }
            var total: Int?
            if query.inlineCount || generation == 3 {
                total = Int(try db.query("SELECT count(*)\(from)\(whereClause)", parameters).first?.first?.integer ?? 0)
            }
            return Page(rows: rows, totalCount: total)
        } catch {
            throw TableError(status: 400, message: "The query could not run: \(error)")
        }
    }

    /// Date literals as the plain string literals of the stored spelling (`'2026-11-29T14:03:07.123Z'`), so
    /// timestamps compare as stored. 2.0.0 writes them `datetimeoffset'…'`; OData v4 (3.0.0) has no such literal (400)
    /// and writes `cast(…,Edm.DateTimeOffset)` or the bare ISO value. Text inside string literals is left alone.
    static func timestampLiterals(_ filter: String, generation: Int = 2) throws(QueryError) -> String {
        let chars = Array(filter)
        var out = ""
        var i = 0
        func startsWith(_ word: String, at index: Int) -> Bool {
            let w = Array(word)
            return index + w.count <= chars.count && String(chars[index..<index + w.count]).lowercased() == word
        }
        func instant(_ text: String) throws(QueryError) -> String {
            guard let instant = CatalogTimestamp(text) else {
                throw QueryError(description: "$filter: '\(text)' is not a date and time")
            }
            return "'\(instant)'"
        }
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                // Copy an ordinary literal through its closing quote ('' is a quote inside it).
                out.append(c)
                i += 1
                while i < chars.count {
                    out.append(chars[i])
                    if chars[i] == "'" {
                        if i + 1 < chars.count, chars[i + 1] == "'" {
                            out.append("'")
                            i += 2
                            continue
                        }
                        i += 1
                        break
                    }
                    i += 1
                }
                continue
            }
            let startsWord = i == 0 || !(chars[i - 1].isLetter || chars[i - 1].isNumber || chars[i - 1] == "_")
            if startsWord, startsWith("datetimeoffset'", at: i) {
                guard generation == 2 else {
                    throw QueryError(
                        description: "$filter: datetimeoffset'…' is not an OData v4 literal; use "
                            + "cast(…,Edm.DateTimeOffset) or the bare date and time")
                }
                var j = i + "datetimeoffset'".count
                var text = ""
                while j < chars.count, chars[j] != "'" {
                    text.append(chars[j])
                    j += 1
                }
                guard j < chars.count else { throw QueryError(description: "$filter: unterminated datetimeoffset") }
                out += try instant(text)
                i = j + 1
                continue
            }
            if generation == 3, startsWord, startsWith("cast(", at: i) {
                var j = i + "cast(".count
                var text = ""
                while j < chars.count, chars[j] != "," && chars[j] != ")" {
                    text.append(chars[j])
                    j += 1
                }
                let type = "edm.datetimeoffset)"
                guard j < chars.count, chars[j] == ",", startsWith(type, at: j + 1) else {
                    throw QueryError(description: "$filter: only cast(…,Edm.DateTimeOffset) is supported")
                }
                out += try instant(text.trimmed())
                i = j + 1 + type.count
                continue
            }
            if generation == 3, startsWord, c.isNumber, i + 10 < chars.count, chars[i + 4] == "-",
                chars[i + 7] == "-", chars[i + 10] == "T" || chars[i + 10] == "t"
            {
                var j = i
                var text = ""
                while j < chars.count, chars[j] != " ", chars[j] != ")" {
                    text.append(chars[j])
                    j += 1
                }
                out += try instant(text)
                i = j
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }

    /// Applies a load file's rows to `table` in one transaction (`--load`): a row with `"deleted": true`
    /// soft-deletes the stored row, any other row is inserted or updated in place. Every row gets a new version and
    /// `updatedAt` = its own `updatedAt` when it has one (tests use this for rows sharing a timestamp), else `now`.
    /// Returns how many rows were written.
    @discardableResult
    func load(table: String, rows: [[(String, JSONValue)]], now: Double) throws(TableError) -> Int {
        guard TableStore.isValidName(table) else { throw TableError(status: 400, message: "bad table name '\(table)'") }
        do {
            return try db.transaction { () throws(StoreError) -> Result<Int, TableError> in
                var written = 0
                for fields in rows {
                    guard let id = fields.first(where: { $0.0 == "id" })?.1.stringValue, !id.isEmpty else {
                        return .failure(TableError(status: 400, message: "a row without a string id"))
                    }
                    var stamp = timestamps.stamp(now)
                    if let text = fields.first(where: { $0.0 == "updatedAt" })?.1.stringValue {
                        guard let instant = CatalogTimestamp(text) else {
                            return .failure(TableError(status: 400, message: "row \(id): bad updatedAt '\(text)'"))
                        }
                        stamp = timestamps.stamp(Double(instant.milliseconds) / 1000)
                    }
                    let deleted = fields.contains { $0.0 == "deleted" && $0.1 == .bool(true) }
                    let user = fields.filter { !["id", "createdAt", "updatedAt", "version", "deleted"].contains($0.0) }
                    try ensureTable(table, fields: user)
                    try createSyncIndex(table)
                    let version = newVersion()
                    if try row(table: table, id: id, includeDeleted: true) != nil {
                        var sets = ["\"updatedAt\" = ?", "\"version\" = ?", "\"deleted\" = ?"]
                        var values: [SQLiteValue] = [.text(stamp), .text(version), .integer(deleted ? 1 : 0)]
                        for (name, value) in user {
                            sets.append("\(column(table, name) ?? TableStore.quoted(name)) = ?")
                            values.append(sqlValue(value))
                        }
                        try db.query(
                            "UPDATE \(TableStore.quoted(table)) SET \(sets.joined(separator: ", ")) WHERE id = ?",
                            values + [.text(id)])
                    } else if !deleted {
                        try insertRow(table: table, id: id, stamp: stamp, version: version, fields: user)
                    } else {
                        continue
                    }
                    written += 1
                }
                return .success(written)
            }.get()
        } catch let error as TableError {
            throw error
        } catch {
            try? reloadSchema()
            throw TableError(status: 500, message: "Storage failed: \(error)")
        }
    }

    private func render(table: String, names: [String], values: [SQLiteValue]) -> JSONValue {
        let kinds = Dictionary(schema[table]?.map { ($0.name, $0.kind) } ?? [], uniquingKeysWith: { a, _ in a })
        var members: [(String, JSONValue)] = []
        for (name, value) in zip(names, values) {
            if generation == 3, name == "createdAt" { continue }  // 3.0.0 has no createdAt
            let boolean = name == "deleted" || kinds[name] == "boolean"
            if name == "updatedAt" || name == "createdAt", case .text(let stored) = value {
                members.append((name, .string(timestamps.render(stored))))
                continue
            }
            switch value {
            case .null: members.append((name, .null))
            case .integer(let n): members.append((name, boolean ? .bool(n != 0) : .integer(n)))
            case .real(let d): members.append((name, .number(d)))
            case .text(let s): members.append((name, .string(s)))
            case .blob(let b): members.append((name, .string(Data(b).base64EncodedString())))
            }
        }
        return .object(members)
    }
}

/// The query options of a GET list request, checked like the real servers: 2.0.0 (`$top` at most 1000, default 50,
/// `$inlinecount`, `__includeDeleted`) or 3.0.0 (OData v4: `$count`, `__includedeleted`, pages capped at 100 unless
/// `--page-cap` says otherwise, whatever `$top` asks).
struct TableQuery {
    static let defaultTop = 50
    static let maxTop = 1000
    static let defaultPageCap = 100
    var filter: String?
    /// `$top` as given (3.0.0 pages by its cap when there is none).
    var topGiven: Int?
    /// The raw query parameters, for the next page's link.
    var parameters: [String: String] = [:]
    var orderBy: [(String, Bool)] = []
    var select: [String]?
    var top = defaultTop
    var skip = 0
    var inlineCount = false
    var includeDeleted = false

    init(parameters: [String: String], generation: Int = 2) throws(QueryError) {
        self.parameters = parameters
        filter = parameters["$filter"].flatMap { $0.trimmed().isEmpty ? nil : $0 }
        if let t = parameters["$top"] {
            guard let n = Int(t), n >= 0 else { throw QueryError(description: "$top must be a non-negative integer") }
            guard n <= TableQuery.maxTop else {
                throw QueryError(description: "$top must be at most \(TableQuery.maxTop) (got \(n))")
            }
            top = n
            topGiven = n
        }
        if let s = parameters["$skip"] {
            guard let n = Int(s), n >= 0 else { throw QueryError(description: "$skip must be a non-negative integer") }
            skip = n
        }
        if let o = parameters["$orderby"] {
            for part in o.split(separator: ",") {
                let words = part.split(separator: " ").map(String.init)
                guard let name = words.first, words.count <= 2 else {
                    throw QueryError(description: "$orderby: cannot read '\(part)'")
                }
                let direction = words.count == 2 ? words[1].lowercased() : "asc"
                guard direction == "asc" || direction == "desc" else {
                    throw QueryError(description: "$orderby: direction must be asc or desc")
                }
                orderBy.append((name, direction == "desc"))
            }
        }
        if let s = parameters["$select"] {
            select = s.split(separator: ",").map { $0.trimmed() }.filter { !$0.isEmpty }
        }
        if generation == 3 {
            if parameters["$inlinecount"] != nil {
                throw QueryError(description: "The query option '$inlinecount' is not supported; OData v4 has $count")
            }
            if let c = parameters["$count"] {
                guard c == "true" || c == "false" else { throw QueryError(description: "$count must be true or false") }
                inlineCount = c == "true"
            }
            includeDeleted = parameters.contains { $0.key.lowercased() == "__includedeleted" && $0.value == "true" }
            return
        }
        if let c = parameters["$inlinecount"] {
            guard c == "allpages" || c == "none" else {
                throw QueryError(description: "$inlinecount must be allpages or none")
            }
            inlineCount = c == "allpages"
        }
        includeDeleted = parameters["__includeDeleted"]?.lowercased() == "true"
    }
}
