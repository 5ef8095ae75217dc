import FaroCore

/// Places whose zone entries raise no notification (docs/notifications.md), kept only on this device.
public struct MutedPlaceRepository {
    let connection: SQLiteConnection

    /// Every muted place, the most recently muted first.
    public func list() throws(StoreError) -> [MutedPlace] {
        try connection.query("SELECT key, cliente, titulo, muted_at FROM muted_places ORDER BY muted_at DESC, key")
            .map { r in
                MutedPlace(
                    key: r[0].text ?? "", business: r[1].text ?? "", title: r[2].text ?? "", mutedAt: r[3].real ?? 0)
            }
    }

    /// Whether the place kept by `key` is muted.
    public func contains(key: String) throws(StoreError) -> Bool {
        try !connection.query("SELECT 1 FROM muted_places WHERE key = ?", [.text(key)]).isEmpty
    }

    /// Mutes a place; muting it again keeps one row, with the new time and names.
    public func mute(_ place: MutedPlace) throws(StoreError) {
        try connection.query(
            "INSERT INTO muted_places (key, cliente, titulo, muted_at) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (key) DO UPDATE SET cliente = excluded.cliente, titulo = excluded.titulo, "
                + "muted_at = excluded.muted_at",
            [.text(place.key), .text(place.business), .text(place.title), .real(place.mutedAt)])
    }

    /// Un-mutes one place; returns whether it was muted.
    @discardableResult
    public func unmute(key: String) throws(StoreError) -> Bool {
        try connection.query("DELETE FROM muted_places WHERE key = ?", [.text(key)])
        return connection.changes > 0
    }

    /// Un-mutes every place; returns how many were muted.
    @discardableResult
    public func clear() throws(StoreError) -> Int {
        try connection.query("DELETE FROM muted_places")
        return connection.changes
    }
}
