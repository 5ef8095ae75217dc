internal import CSQLite
internal import CShim.SQLite
import FoundationEssentials
import Glibc

/// One open SQLite database connection, used from one thread at a time (each thread that needs the store opens its
/// own). All SQL goes through `prepare` with bound parameters; failures become `StoreError`s that name the file.
public final class SQLiteConnection {
    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read and write; the file is created (mode 0600) if it does not exist.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read only.
        case readOnly
    }

    public let path: String
    private let handle: OpaquePointer
    /// Compiled statements not in use, by their SQL, for the next `prepare` of the same text: a catalog pull runs
    /// the same handful of statements for each of its pages, and compiling them is most of a small page's cost.
    private var idleStatements: [String: OpaquePointer] = [:]
    /// At most this many are kept (SQL built with values in it would otherwise grow the cache without bound).
    public static let statementCacheLimit = 48

    /// Opens `path` (or ":memory:") and sets a busy timeout, so that a short lock held by another process is waited
    /// for instead of failing at once. The corresponding C function is `sqlite3_open_v2`.
    public init(path: String, mode: Mode = .readWriteCreate, busyTimeoutMilliseconds: Int32 = 5000) throws(StoreError) {
        self.path = path
        var flags: Int32 = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        if mode == .readWriteCreate, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            // Create the file ourselves so it is 0600 from its first instant (SQLite would use the umask).
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteConnection.error(code: rc, path: path, operation: "opening", message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    deinit {
        for statement in idleStatements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without parameters (schema changes, pragmas, transaction control); may hold several statements.
    public func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteConnection.error(code: rc, path: path, operation: "running \(Self.summary(sql))", message: text)
        }
    }

    /// One statement, compiled (`sqlite3_prepare_v2`) or, when the same SQL ran before and is not in use, taken
    /// from the connection's cache. Either way it starts reset, with no bindings; once released it goes back to the
    /// cache. SQLite recompiles a cached statement by itself if the schema changed since.
    public func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = idleStatements.removeValue(forKey: sql) {
            return SQLiteStatement(statement: cached, connection: self, sql: sql)
        }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw failure(rc, "preparing \(Self.summary(sql))")
        }
        return SQLiteStatement(statement: statement, connection: self, sql: sql)
    }

    /// Takes back a released statement: reset and kept for the next `prepare` of `sql`, or finalized when one is
    /// already kept for it or the cache is full.
    func release(_ statement: OpaquePointer, sql: String) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        if idleStatements[sql] == nil, idleStatements.count < Self.statementCacheLimit {
            idleStatements[sql] = statement
        } else {
            sqlite3_finalize(statement)
        }
    }

    /// Statements kept for reuse right now.
    public var cachedStatementCount: Int { idleStatements.count }

    /// Runs one statement with `parameters` bound in order and returns every row.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(StoreError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE`, so the write lock is taken up front and a busy database is
    /// waited for once, at the start); rolls back if it throws.
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try query("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try query("COMMIT")
            return result
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last insert on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// An integer pragma's value (`user_version`, …).
    public func integerPragma(_ name: String) throws(StoreError) -> Int {
        guard case .integer(let value)? = try query("PRAGMA \(name)").first?.first else { return 0 }
        return Int(value)
    }

    func failure(_ code: Int32, _ operation: String) -> StoreError {
        SQLiteConnection.error(
            code: code, path: path, operation: operation,
            message: String(cString: sqlite3_errmsg(handle)))
    }

    static func summary(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(4).joined(separator: " ")
        return "'\(words)…'"
    }

    /// Maps an SQLite result code to the error a user can act on.
    static func error(code: Int32, path: String, operation: String, message: String) -> StoreError {
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(path: path, detail: message)
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_FULL: return .diskFull(path: path)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: return .cannotOpen(path: path, reason: message)
        default: return .failed(path: path, operation: operation, code: code, message: message)
        }
    }
}
