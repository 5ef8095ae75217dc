import FaroCore

/// "Mis datos de contacto" (§8): one row, kept only on this device.
public struct ContactProfileRepository {
    let connection: SQLiteConnection

    public func load() throws(StoreError) -> ContactDetails? {
        guard
            let r = try connection.query("SELECT nombre, email, telefono, empresa FROM contact_profile WHERE id = 1")
                .first
        else { return nil }
        return ContactDetails(
            stored: r[0].text ?? "", email: r[1].text ?? "", telefono: r[2].text ?? "", empresa: r[3].text ?? "")
    }

    public func save(_ details: ContactDetails, now: Double) throws(StoreError) {
        try connection.query(
            "INSERT INTO contact_profile (id, nombre, email, telefono, empresa, updated_at) VALUES (1, ?, ?, ?, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET nombre = excluded.nombre, email = excluded.email, "
                + "telefono = excluded.telefono, empresa = excluded.empresa, updated_at = excluded.updated_at",
            [.text(details.nombre), .text(details.email), .text(details.telefono), .text(details.empresa), .real(now)])
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
