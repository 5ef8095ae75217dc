import FaroCore

/// Why Faro's local database could not do what was asked, in words a user can act on. Faro never deletes or
/// recreates a database that fails: the file stays as it is, so the user's data can still be rescued.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or created (missing folder, permissions, not a regular file).
    case cannotOpen(path: String, reason: String)
    /// The file is not an SQLite database or is damaged.
    case corrupt(path: String, detail: String)
    /// Another program holds a lock on the database for longer than the wait allows.
    case locked(path: String)
    /// The database (or its folder, or the file system) does not accept writes.
    case readOnly(path: String)
    /// The disk is full.
    case diskFull(path: String)
    /// The database was written by a newer Faro with a schema this version does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// Any other SQLite failure, with SQLite's own message.
    case failed(path: String, operation: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open Faro's database \(path): \(reason). Check that the folder exists and is writable."
        case .corrupt(let path, let detail):
            return "Faro's database \(path) is damaged or is not a Faro database (\(detail)). Faro left it untouched: "
                + "move it aside (keep a copy to recover your saved pages) and start Faro again to begin a new one."
        case .locked(let path):
            return "Faro's database \(path) is locked by another program. Close other Faro windows or commands "
                + "and try again."
        case .readOnly(let path):
            return "Faro's database \(path) is read-only. Make the file and its folder writable "
                + "(chmod u+w) and try again; nothing was changed."
        case .diskFull(let path):
            return "the disk holding Faro's database \(path) is full. Free some space and try again."
        case .newerSchema(let path, let found, let supported):
            return "Faro's database \(path) was written by a newer Faro (schema \(found), this Faro knows up to "
                + "\(supported)). Update Faro; the file was not changed."
        case .failed(let path, let operation, let code, let message):
            return "Faro's database \(path) failed while \(operation): \(message) (SQLite code \(code))."
        }
    }
}

extension StoreError {
    /// The problem as the value every layer above passes up (the outbox queue, FaroApp's ports), for the window to
    /// word; the English `description` stays for logs and the terminal.
    public var problem: StorageProblem {
        switch self {
        case .cannotOpen: return .cannotOpen
        case .corrupt: return .damaged
        case .locked: return .locked
        case .readOnly: return .readOnly
        case .diskFull: return .diskFull
        case .newerSchema: return .newerVersion
        case .failed: return .other
        }
    }
}
