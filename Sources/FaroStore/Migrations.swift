/// Faro's schema, one step per version. `PRAGMA user_version` holds the version a database is at; opening runs
/// the missing steps in one transaction. Steps are only ever appended, never edited, so every older database
/// upgrades the same way.
public enum Migrations {
    /// The SQL of each step; step `i` takes a database from version `i` to `i + 1`.
    public static let steps: [String] = [
        // 1: settings, "Mis datos de contacto", catalog cache.
        """
        CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        CREATE TABLE contact_profile (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            nombre TEXT NOT NULL, email TEXT NOT NULL, telefono TEXT NOT NULL, empresa TEXT NOT NULL,
            updated_at REAL NOT NULL);
        CREATE TABLE catalog_cache (
            major INTEGER NOT NULL, minor INTEGER NOT NULL, uuid TEXT NOT NULL DEFAULT '',
            row_id TEXT NOT NULL, cliente TEXT NOT NULL, titulo TEXT NOT NULL, url TEXT NOT NULL,
            fetched_at REAL NOT NULL,
            PRIMARY KEY (major, minor, uuid));
        """,
        // 2: Guardados (MHT archives) and per-site state.
        """
        CREATE TABLE saved_pages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            url TEXT NOT NULL, title TEXT NOT NULL, business TEXT NOT NULL, saved_at REAL NOT NULL,
            mht BLOB NOT NULL);
        CREATE INDEX saved_pages_by_date ON saved_pages (saved_at DESC);
        CREATE TABLE site_state (
            url TEXT PRIMARY KEY NOT NULL,
            contact_sent_at REAL, rating INTEGER, rated_at REAL);
        """,
        // 3: the outbox.
        """
        CREATE TABLE outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            table_name TEXT NOT NULL,
            body TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL,
            last_error TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL);
        CREATE INDEX outbox_queue ON outbox (state, table_name, seq);
        """,
        // 4: outbox rows remember the backend they were queued for, the site they are about (rows about one site
        // keep their order), the server's "try again" answers and when they were queued (retries are bounded);
        // the synced catalog replaces the per-lookup cache (a cache of no backend in particular: it is dropped,
        // the first sync fills the new one), with its delta token per catalog source (places refer to their source by
        // number: a pull writes 10,000 rows and their index entries).
        """
        ALTER TABLE outbox ADD COLUMN backend TEXT;
        ALTER TABLE outbox ADD COLUMN order_key TEXT;
        ALTER TABLE outbox ADD COLUMN server_errors INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE outbox ADD COLUMN queued_at REAL;
        UPDATE outbox SET queued_at = created_at;
        UPDATE outbox SET order_key = json_extract(body, '$.cliente') || char(31) || json_extract(body, '$.titulo')
            WHERE table_name IN ('contactame', 'rateme') AND json_valid(body)
            AND json_type(body, '$.cliente') = 'text' AND json_type(body, '$.titulo') = 'text';
        CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
        CREATE INDEX outbox_by_key ON outbox (order_key, seq) WHERE state = 'pending';
        DROP TABLE catalog_cache;
        CREATE TABLE catalog_sync (
            id INTEGER PRIMARY KEY,
            source TEXT NOT NULL UNIQUE,
            cursor_updated_at TEXT, cursor_id TEXT,
            pulled_at REAL);
        CREATE TABLE catalog_places (
            source_id INTEGER NOT NULL,
            id TEXT NOT NULL,
            uuid TEXT NOT NULL DEFAULT '',
            major INTEGER NOT NULL, minor INTEGER NOT NULL,
            cliente TEXT NOT NULL, titulo TEXT NOT NULL, url TEXT NOT NULL,
            updated_at TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (source_id, id)) WITHOUT ROWID;
        CREATE INDEX catalog_places_by_beacon ON catalog_places (source_id, major, minor);
        """,
        // 5: the tables protocol generation each backend was found to speak (docs/backend-protocols.md), by base URL;
        // each place keeps its row's version, so a row read again unchanged is not counted as changed.
        """
        ALTER TABLE catalog_places ADD COLUMN version TEXT NOT NULL DEFAULT '';
        CREATE TABLE IF NOT EXISTS backend_protocols (
            base_url TEXT PRIMARY KEY NOT NULL,
            generation INTEGER NOT NULL CHECK (generation IN (2, 3)),
            learned_at REAL NOT NULL);
        """,
        // 6: beacon calibrations at 1 m, per-adapter offsets (docs/calibration.md), and visited places
        // (docs/visits.md); times are seconds since 1970, UTC.
        """
        CREATE TABLE calibrations (
            uuid TEXT NOT NULL, major INTEGER NOT NULL, minor INTEGER NOT NULL,
            measured_power REAL NOT NULL, advertised_power INTEGER NOT NULL,
            readings INTEGER NOT NULL, adapter TEXT NOT NULL, calibrated_at REAL NOT NULL,
            PRIMARY KEY (uuid, major, minor)) WITHOUT ROWID;
        CREATE TABLE adapter_offsets (
            adapter TEXT PRIMARY KEY NOT NULL,
            offset_db REAL NOT NULL,
            uuid TEXT NOT NULL, major INTEGER NOT NULL, minor INTEGER NOT NULL,
            measured_at REAL NOT NULL);
        CREATE TABLE visits (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            place_id TEXT NOT NULL, cliente TEXT NOT NULL, titulo TEXT NOT NULL, url TEXT NOT NULL,
            uuid TEXT NOT NULL, major INTEGER NOT NULL, minor INTEGER NOT NULL,
            entered_at REAL NOT NULL, left_at REAL, closest_m REAL);
        CREATE INDEX visits_by_entry ON visits (entered_at DESC, id DESC);
        CREATE INDEX visits_open ON visits (place_id) WHERE left_at IS NULL;
        """,
        // 7: outbox rows keep why they wait or were refused as a value (`OutboxReason`'s stored JSON), which the
        // window words in the user's language; rows from before keep only `last_error` (NULL reason).
        """
        ALTER TABLE outbox ADD COLUMN reason TEXT;
        """,
        // 8: muted places (docs/notifications.md): no zone notification for them, kept by the catalog row's id or,
        // for a row without one, by its beacon's `UUID/major/minor`, with the names to list them by.
        """
        CREATE TABLE muted_places (
            key TEXT PRIMARY KEY NOT NULL,
            cliente TEXT NOT NULL, titulo TEXT NOT NULL,
            muted_at REAL NOT NULL) WITHOUT ROWID;
        """,
    ]

    /// The version a fully migrated database is at.
    public static var latestVersion: Int { steps.count }

    /// Brings `connection` to `target` (default: latest). Safe when several processes open the same file at once:
    /// the version is read again inside the write transaction. Refuses (without touching the file) a database
    /// newer than this Faro.
    public static func migrate(_ connection: SQLiteConnection, to target: Int = latestVersion) throws(StoreError) {
        let current = try connection.integerPragma("user_version")
        if current > latestVersion {
            throw .newerSchema(path: connection.path, found: current, supported: latestVersion)
        }
        guard current < target else { return }
        try connection.transaction { () throws(StoreError) in
            let version = try connection.integerPragma("user_version")
            guard version < target else { return }
            for step in version..<target {
                try connection.execute(steps[step])
            }
            try connection.execute("PRAGMA user_version = \(target)")
        }
    }
}
