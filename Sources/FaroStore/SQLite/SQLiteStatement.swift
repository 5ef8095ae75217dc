internal import CSQLite
internal import CShim.SQLite

/// A value stored in or read from SQLite: the five storage classes.
public enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The text, or nil for any other class.
    public var text: String? { if case .text(let s) = self { return s } else { return nil } }
    /// The integer (reals are truncated), or nil.
    public var integer: Int64? {
        switch self {
        case .integer(let n): return n
        case .real(let d): return Int64(exactly: d.rounded(.towardZero))
        default: return nil
        }
    }
    /// The number as a Double, or nil.
    public var real: Double? {
        switch self {
        case .real(let d): return d
        case .integer(let n): return Double(n)
        default: return nil
        }
    }
    /// The bytes, or nil.
    public var blob: [UInt8]? { if case .blob(let b) = self { return b } else { return nil } }
}

/// One compiled statement: bind parameters, step through rows, read columns. When released it goes back to its
/// connection's cache (see `SQLiteConnection.prepare`), or is finalized.
public final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection
    private let sql: String

    init(statement: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.statement = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { connection.release(statement, sql: sql) }

    /// Binds `values` to parameters 1…n (after resetting the statement). Text and blobs are copied by SQLite.
    public func bind(_ values: [SQLiteValue]) throws(StoreError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let n): rc = sqlite3_bind_int64(statement, index, n)
            case .real(let d): rc = sqlite3_bind_double(statement, index, d)
            case .text(let s):
                let length = Int32(s.utf8.count)
                rc = s.withCString { faro_sqlite3_bind_text_transient(statement, index, $0, length) }
            case .blob(let bytes):
                rc = bytes.withUnsafeBytes { raw in
                    faro_sqlite3_bind_blob_transient(
                        statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count))
                }
            }
            if rc != SQLITE_OK {
                throw connection.failure(rc, "binding parameter \(index) of \(SQLiteConnection.summary(sql))")
            }
        }
    }

    /// Advances to the next row: true when a row is available, false when the statement is done.
    public func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(statement)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(statement)
            throw connection.failure(rc, "running \(SQLiteConnection.summary(sql))")
        }
    }

    /// The current row's columns.
    public func row() -> [SQLiteValue] {
        (0..<sqlite3_column_count(statement)).map { column($0) }
    }

    /// The names of the result columns.
    public var columnNames: [String] {
        (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
    }

    private func column(_ i: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, i))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, i) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, i))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, i))
            guard count > 0, let bytes = sqlite3_column_blob(statement, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
