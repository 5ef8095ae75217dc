import FaroCore
import FoundationEssentials

/// "Mis datos de contacto" (§8): one row, kept only on this device.
public struct ContactProfileRepository {
    let connection: SQLiteConnection

    public func load() throws(StoreError) -> ContactDetails? {
        guard
            let r = try connection.query("SELECT nombre, email, telefono, empresa FROM contact_profile WHERE id = 1")
                .first
        else { return nil }
        let fields = [
            "nombre": r[0].text ?? "", "email": r[1].text ?? "", "telefono": r[2].text ?? "",
            "empresa": r[3].text ?? "",
        ]
        // Stored values were validated when saved; decoding keeps them exactly as stored.
        guard let data = try? JSONEncoder().encode(fields) else { return nil }
        return try? JSONDecoder().decode(ContactDetails.self, from: data)
    }

    public func save(_ details: ContactDetails, now: Double) throws(StoreError) {
        try connection.query(
            "INSERT INTO contact_profile (id, nombre, email, telefono, empresa, updated_at) VALUES (1, ?, ?, ?, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET nombre = excluded.nombre, email = excluded.email, "
                + "telefono = excluded.telefono, empresa = excluded.empresa, updated_at = excluded.updated_at",
            [.text(details.nombre), .text(details.email), .text(details.telefono), .text(details.empresa), .real(now)])
    }
}

/// One catalog row as cached: the business, title and microsite of a beacon (§12).
public struct CatalogEntry: Equatable, Sendable {
    public var id: String
    public var uuid: String?
    public var major: Int
    public var minor: Int
    public var cliente: String
    public var titulo: String
    public var url: String

    public init(id: String, uuid: String?, major: Int, minor: Int, cliente: String, titulo: String, url: String) {
        self.id = id
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.cliente = cliente
        self.titulo = titulo
        self.url = url
    }
}

/// The catalog cache: what the backend said about each beacon, so the list shows titles offline.
public struct CatalogCacheRepository {
    let connection: SQLiteConnection

    /// Replaces what is cached for (major, minor) with `entries` (the latest answer from the backend).
    public func store(major: Int, minor: Int, entries: [CatalogEntry], now: Double) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            try connection.query(
                "DELETE FROM catalog_cache WHERE major = ? AND minor = ?",
                [.integer(Int64(major)), .integer(Int64(minor))])
            for e in entries {
                try connection.query(
                    "INSERT OR REPLACE INTO catalog_cache (major, minor, uuid, row_id, cliente, titulo, url, fetched_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(Int64(e.major)), .integer(Int64(e.minor)), .text(e.uuid?.lowercased() ?? ""),
                        .text(e.id), .text(e.cliente), .text(e.titulo), .text(e.url), .real(now),
                    ])
            }
        }
    }

    /// The cached entry for a beacon: one whose UUID matches, else one cached without a UUID.
    public func lookup(major: Int, minor: Int, uuid: String?) throws(StoreError) -> CatalogEntry? {
        let rows = try connection.query(
            "SELECT row_id, uuid, major, minor, cliente, titulo, url FROM catalog_cache WHERE major = ? AND minor = ? "
                + "AND (uuid = ? OR uuid = '') ORDER BY uuid DESC LIMIT 1",
            [.integer(Int64(major)), .integer(Int64(minor)), .text(uuid?.lowercased() ?? "")])
        return rows.first.map { r in
            CatalogEntry(
                id: r[0].text ?? "", uuid: (r[1].text ?? "").isEmpty ? nil : r[1].text,
                major: Int(r[2].integer ?? 0), minor: Int(r[3].integer ?? 0), cliente: r[4].text ?? "",
                titulo: r[5].text ?? "", url: r[6].text ?? "")
        }
    }
}

/// "Guardados" (§3): MHT archives with their title, business, URL and date.
public struct SavedPagesRepository {
    let connection: SQLiteConnection

    /// A saved page without its archive (what the list shows).
    public struct Summary: Equatable, Sendable {
        public var id: Int64
        public var url: String
        public var title: String
        public var business: String
        public var savedAt: Double
    }

    @discardableResult
    public func save(url: String, title: String, business: String, mht: [UInt8], now: Double) throws(StoreError)
        -> Int64
    {
        try connection.query(
            "INSERT INTO saved_pages (url, title, business, saved_at, mht) VALUES (?, ?, ?, ?, ?)",
            [.text(url), .text(title), .text(business), .real(now), .blob(mht)])
        return connection.lastInsertRowID
    }

    /// Newest first.
    public func list() throws(StoreError) -> [Summary] {
        try connection.query(
            "SELECT id, url, title, business, saved_at FROM saved_pages ORDER BY saved_at DESC, id DESC"
        )
        .map { r in
            Summary(
                id: r[0].integer ?? 0, url: r[1].text ?? "", title: r[2].text ?? "",
                business: r[3].text ?? "", savedAt: r[4].real ?? 0)
        }
    }

    public func archive(id: Int64) throws(StoreError) -> [UInt8]? {
        try connection.query("SELECT mht FROM saved_pages WHERE id = ?", [.integer(id)]).first?.first?.blob
    }

    public func delete(id: Int64) throws(StoreError) {
        try connection.query("DELETE FROM saved_pages WHERE id = ?", [.integer(id)])
    }
}
