import FaroCore

/// The local catalog (docs/backend.md): every place the backend's `beacons` table holds, as last synced, with the
/// pull's delta token, so places are named offline and the next pull asks only for what changed. Kept per catalog
/// source (the table's URL), so a catalog never mixes backends.
public struct CatalogRepository {
    let connection: SQLiteConnection

    static let columns = "id, uuid, major, minor, cliente, titulo, url, updated_at, version"
    /// The number `catalog_places` knows a source by (bind the source's text).
    static let sourceID = "(SELECT id FROM catalog_sync WHERE source = ?)"

    /// The number of `source`, made on first use.
    private func makeSourceID(_ source: String) throws(StoreError) -> Int64 {
        try connection.query("INSERT OR IGNORE INTO catalog_sync (source) VALUES (?)", [.text(source)])
        return try connection.query("SELECT id FROM catalog_sync WHERE source = ?", [.text(source)]).first?.first?
            .integer ?? 0
    }

    /// Every place of `source`, in no particular order.
    public func places(source: String) throws(StoreError) -> [CatalogPlace] {
        try connection.query(
            "SELECT \(Self.columns) FROM catalog_places WHERE source_id = \(Self.sourceID)", [.text(source)]
        )
        .compactMap(Self.place)
    }

    /// How many places `source` has.
    public func count(source: String) throws(StoreError) -> Int {
        Int(
            try connection.query(
                "SELECT count(*) FROM catalog_places WHERE source_id = \(Self.sourceID)", [.text(source)]
            ).first?
            .first?.integer ?? 0)
    }

    /// The place of a sighted beacon: a row with its UUID, else a UUID-less row with its major and minor.
    public func place(source: String, for beacon: BeaconIdentity) throws(StoreError) -> CatalogPlace? {
        let rows = try connection.query(
            // By the beacon index: without statistics SQLite would walk the whole source by its primary key.
            "SELECT \(Self.columns) FROM catalog_places INDEXED BY catalog_places_by_beacon "
                + "WHERE source_id = \(Self.sourceID) AND major = ? AND minor = ? "
                + "AND (uuid = ? OR uuid = '') ORDER BY uuid DESC, id LIMIT 1",
            [
                .text(source), .integer(Int64(beacon.major)), .integer(Int64(beacon.minor)),
                .text(CatalogUUIDText.format(beacon.uuid)),
            ])
        return rows.first.flatMap(Self.place).map { $0.bound(to: beacon) }
    }

    /// The delta token of `source`: where the last pull ended (nil: never pulled, or reset).
    public func cursor(source: String) throws(StoreError) -> CatalogCursor? {
        guard
            let row = try connection.query(
                "SELECT cursor_updated_at, cursor_id FROM catalog_sync WHERE source = ?", [.text(source)]
            ).first, let updatedAt = row[0].text, let id = row[1].text
        else { return nil }
        return CatalogCursor(updatedAt: updatedAt, id: id)
    }

    /// When `source` was last pulled to its end (seconds since 1970), nil if never.
    public func pulledAt(source: String) throws(StoreError) -> Double? {
        try connection.query("SELECT pulled_at FROM catalog_sync WHERE source = ?", [.text(source)]).first?
            .first?.real
    }

    /// How applying one page went.
    public struct Applied: Equatable, Sendable {
        public var added = 0
        public var updated = 0
        public var deleted = 0
        public var skipped = 0
        public var skippedReason: String?
    }

    /// Applies one pulled page and moves the delta token, in one transaction: a pull cut short keeps every page it
    /// finished, and the next one goes on after the last of them. `finished` also records the time of a complete
    /// pull.
    @discardableResult
    public func apply(
        _ changes: [CatalogRowChange], cursor: CatalogCursor?, source: String, finishedAt: Double? = nil
    ) throws(StoreError) -> Applied {
        try connection.transaction { () throws(StoreError) -> Applied in
            var applied = Applied()
            let sid = SQLiteValue.integer(try makeSourceID(source))
            let insert = try connection.prepare(
                "INSERT OR IGNORE INTO catalog_places (source_id, \(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            )
            // A row read again at the version held (a whole second read again, a page asked for twice) is unchanged.
            let update = try connection.prepare(
                "UPDATE catalog_places SET uuid = ?, major = ?, minor = ?, cliente = ?, titulo = ?, url = ?, "
                    + "updated_at = ?, version = ? WHERE source_id = ? AND id = ? "
                    + "AND (version = '' OR version <> ?8 OR updated_at <> ?7)")
            let delete = try connection.prepare("DELETE FROM catalog_places WHERE source_id = ? AND id = ?")
            for change in changes {
                switch change {
                case .upsert(let p):
                    let values = Self.values(p)
                    try insert.bind([sid, .text(p.id)] + values)
                    _ = try insert.step()
                    if connection.changes > 0 {
                        applied.added += 1
                    } else {
                        try update.bind(values + [sid, .text(p.id)])
                        _ = try update.step()
                        applied.updated += connection.changes
                    }
                case .delete(let id):
                    try delete.bind([sid, .text(id)])
                    _ = try delete.step()
                    applied.deleted += connection.changes
                case .skip(_, let reason):
                    applied.skipped += 1
                    if applied.skippedReason == nil { applied.skippedReason = reason }
                }
            }
            if let cursor {
                try connection.query(
                    "UPDATE catalog_sync SET cursor_updated_at = ?, cursor_id = ? WHERE id = ?",
                    [.text(cursor.updatedAt), .text(cursor.id), sid])
            }
            if let finishedAt {
                try connection.query("UPDATE catalog_sync SET pulled_at = ? WHERE id = ?", [.real(finishedAt), sid])
            }
            return applied
        }
    }

    /// What a lookup by major and minor found (the fallback where listing is refused): replaces the places of that
    /// major and minor, leaving the delta token alone.
    public func storeLookup(major: UInt16, minor: UInt16, places: [CatalogPlace], source: String) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            let sid = SQLiteValue.integer(try makeSourceID(source))
            try connection.query(
                "DELETE FROM catalog_places WHERE source_id = ? AND major = ? AND minor = ?",
                [sid, .integer(Int64(major)), .integer(Int64(minor))])
            for p in places where p.identity.major == major && p.identity.minor == minor {
                try connection.query(
                    "INSERT OR REPLACE INTO catalog_places (source_id, \(Self.columns)) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [sid, .text(p.id)] + Self.values(p))
            }
        }
    }

    /// The tables protocol generation the backend at `baseURL` was last found to speak, nil if never learned.
    public func generation(baseURL: String) throws(StoreError) -> BackendProtocol? {
        try connection.query("SELECT generation FROM backend_protocols WHERE base_url = ?", [.text(baseURL)]).first?
            .first?.integer.flatMap { BackendProtocol(rawValue: Int($0)) }
    }

    /// Remembers the generation the backend at `baseURL` answered in (learned again when its answers change).
    public func setGeneration(_ generation: BackendProtocol, baseURL: String, now: Double) throws(StoreError) {
        try connection.query(
            "INSERT INTO backend_protocols (base_url, generation, learned_at) VALUES (?, ?, ?) "
                + "ON CONFLICT (base_url) DO UPDATE SET generation = excluded.generation, "
                + "learned_at = excluded.learned_at WHERE generation <> excluded.generation",
            [.text(baseURL), .integer(Int64(generation.rawValue)), .real(now)])
    }

    /// Forgets `source`'s places and delta token (`faro catalog sync --full` starts again from nothing).
    public func reset(source: String) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            try connection.query("DELETE FROM catalog_places WHERE source_id = \(Self.sourceID)", [.text(source)])
            try connection.query("DELETE FROM catalog_sync WHERE source = ?", [.text(source)])
        }
    }

    private static func values(_ p: CatalogPlace) -> [SQLiteValue] {
        [
            .text(p.uuid.map(CatalogUUIDText.format) ?? ""), .integer(Int64(p.identity.major)),
            .integer(Int64(p.identity.minor)),
            .text(p.cliente), .text(p.titulo), .text(p.url), .text(p.updatedAt), .text(p.version),
        ]
    }

    private static func place(_ r: [SQLiteValue]) -> CatalogPlace? {
        guard let id = r[0].text, let major = r[2].integer.flatMap({ UInt16(exactly: $0) }),
            let minor = r[3].integer.flatMap({ UInt16(exactly: $0) })
        else { return nil }
        let uuid = r[1].text.flatMap { $0.isEmpty ? nil : CatalogUUIDText.parse($0) }
        return CatalogPlace(
            identity: BeaconIdentity(uuid: uuid ?? CatalogPlace.unspecifiedUUID, major: major, minor: minor),
            cliente: r[4].text ?? "", titulo: r[5].text ?? "", url: r[6].text ?? "", id: id, anyUUID: uuid == nil,
            updatedAt: r[7].text ?? "", version: r[8].text ?? "")
    }
}
