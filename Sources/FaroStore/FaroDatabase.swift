import FaroCore
import FoundationEssentials
import Glibc

/// Faro's local store: the one SQLite database under `$XDG_DATA_HOME/faro/` (file mode 0600, WAL journal, schema
/// migrated on open), and the repositories over it. Open one per thread; each holds its own connection.
public final class FaroDatabase {
    /// The file name inside the data folder.
    public static let fileName = "faro.sqlite3"

    public let connection: SQLiteConnection
    public var path: String { connection.path }

    /// Opens (creating and migrating as needed) the database at `path`.
    ///
    /// `durable` chooses `synchronous=FULL` (every commit reaches the disk before it returns: what submissions
    /// need before the UI says "sent"); the deliverer uses `false` (`NORMAL`: still safe against a killed process,
    /// and a "delivered" mark lost to a power cut only costs a 409 later).
    public init(
        path: String, mode: SQLiteConnection.Mode = .readWriteCreate, durable: Bool = true,
        busyTimeoutMilliseconds: Int32 = 5000
    ) throws(StoreError) {
        let directory = path.parentDirectoryPath
        if mode == .readWriteCreate, !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotOpen(path: path, reason: "cannot create the folder \(directory)")
            }
        }
        connection = try SQLiteConnection(path: path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        // Reading the schema is the first real access: a damaged or foreign file fails here, before anything is
        // written, and is left as it was.
        _ = try connection.query("SELECT count(*) FROM sqlite_master")
        if mode != .readOnly {
            if path != ":memory:" { chmod(path, 0o600) }
            let journal = try connection.query("PRAGMA journal_mode = WAL").first?.first?.text
            if journal?.lowercased() != "wal", path != ":memory:" {
                throw .failed(
                    path: path, operation: "switching to WAL", code: 0,
                    message: "the journal mode stayed \(journal ?? "unknown")")
            }
            try connection.execute("PRAGMA synchronous = \(durable ? "FULL" : "NORMAL")")
            // The WAL is copied into the database every `walCheckpointPages` pages, and its file is cut back to
            // `walSizeLimit` bytes once a checkpoint has copied all of it (docs/storage.md): without the limit the
            // file keeps the size of its largest burst for as long as Faro runs.
            try connection.execute("PRAGMA wal_autocheckpoint = \(FaroDatabase.walCheckpointPages)")
            try connection.execute("PRAGMA journal_size_limit = \(FaroDatabase.walSizeLimit)")
            try connection.execute("PRAGMA foreign_keys = ON")
            try Migrations.migrate(connection)
        } else {
            let version = try connection.integerPragma("user_version")
            if version > Migrations.latestVersion {
                throw .newerSchema(path: path, found: version, supported: Migrations.latestVersion)
            }
            if version < Migrations.latestVersion {
                throw .readOnly(path: path)
            }
        }
    }

    /// Pages the WAL may hold before a commit copies them into the database (SQLite's default is 1,000: 4 MB).
    public static let walCheckpointPages = 256
    /// Bytes the WAL file is cut back to after a checkpoint.
    public static let walSizeLimit = 1_048_576

    /// What a checkpoint did: whether another connection's read kept it from finishing (`busy`), how many pages the
    /// WAL held and how many of them are now in the database file.
    public struct Checkpoint: Equatable, Sendable {
        public var busy: Bool
        public var walPages: Int
        public var copiedPages: Int
    }

    /// Copies the WAL into the database file now. `truncate` also empties the WAL file (it waits for readers, up to
    /// the busy timeout); otherwise the checkpoint copies what no reader still needs and never waits.
    @discardableResult
    public func checkpoint(truncate: Bool = false) throws(StoreError) -> Checkpoint {
        let row = try connection.query("PRAGMA wal_checkpoint(\(truncate ? "TRUNCATE" : "PASSIVE"))").first ?? []
        func value(_ i: Int) -> Int { i < row.count ? Int(row[i].integer ?? 0) : 0 }
        return Checkpoint(busy: value(0) != 0, walPages: value(1), copiedPages: value(2))
    }

    /// `$XDG_DATA_HOME/faro/faro.sqlite3`, with `~/.local/share` when XDG_DATA_HOME is unset or relative.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        dataDirectory(environment: environment) + "/" + fileName
    }

    /// `$XDG_DATA_HOME/faro` (the XDG rule: an unset, empty or relative value means `$HOME/.local/share`).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/faro" }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/faro"
    }

    public var outbox: OutboxRepository { OutboxRepository(connection: connection) }
    public var settings: SettingsRepository { SettingsRepository(connection: connection) }
    public var contactProfile: ContactProfileRepository { ContactProfileRepository(connection: connection) }
    public var catalog: CatalogRepository { CatalogRepository(connection: connection) }
    public var savedPages: SavedPagesRepository { SavedPagesRepository(connection: connection) }
    public var siteState: SiteStateRepository { SiteStateRepository(connection: connection) }
    public var calibrations: CalibrationRepository { CalibrationRepository(connection: connection) }
    public var visits: VisitRepository { VisitRepository(connection: connection) }
    public var mutedPlaces: MutedPlaceRepository { MutedPlaceRepository(connection: connection) }
}
