/// What one row of a catalog pull means for the local catalog.
public enum CatalogRowChange: Equatable, Sendable {
    /// A place to add or replace (by row id).
    case upsert(CatalogPlace)
    /// The server marks the row deleted (`deleted: true`, seen with `__includeDeleted=true`): remove it.
    case delete(id: String)
    /// A row Faro cannot use (no `cliente`, a major out of range …): skipped, but the cursor still moves past it.
    case skip(id: String, reason: String)
}

/// One row of a pull as read from the server's JSON: the change, and where the cursor goes past it.
public struct CatalogPulledRow: Equatable, Sendable {
    public var change: CatalogRowChange
    /// Nil when the row has no usable `id` and `updatedAt`: the page cannot be trusted past it.
    public var position: CatalogCursor?

    public init(change: CatalogRowChange, position: CatalogCursor?) {
        self.change = change
        self.position = position
    }

    /// Reads one row of table `beacons` (`{id, uuid, major, minor, cliente, titulo, url, updatedAt, deleted, …}`).
    public static func read(_ row: JSONValue) -> CatalogPulledRow {
        let id = row["id"]?.stringValue ?? ""
        let updatedAt = row["updatedAt"]?.stringValue ?? ""
        let position =
            !id.isEmpty && CatalogTimestamp(updatedAt) != nil ? CatalogCursor(updatedAt: updatedAt, id: id) : nil
        func skip(_ reason: String) -> CatalogPulledRow {
            CatalogPulledRow(change: .skip(id: id, reason: reason), position: position)
        }
        guard !id.isEmpty else { return skip("a row without an id") }
        if row["deleted"] == .bool(true) { return CatalogPulledRow(change: .delete(id: id), position: position) }
        guard let major = row["major"]?.intValue, let minor = row["minor"]?.intValue,
            let major16 = UInt16(exactly: major), let minor16 = UInt16(exactly: minor)
        else { return skip("row \(id): major and minor must be numbers from 0 to 65535") }
        guard let cliente = row["cliente"]?.stringValue, let titulo = row["titulo"]?.stringValue,
            let url = row["url"]?.stringValue
        else { return skip("row \(id): cliente, titulo and url must be text") }
        var uuid: BeaconUUID?
        switch row["uuid"] {
        case nil, .null?: uuid = nil
        case .string(let text)? where text.isEmpty: uuid = nil
        case .string(let text)?:
            guard let parsed = CatalogUUIDText.parse(text) else { return skip("row \(id): '\(text)' is not a UUID") }
            uuid = parsed
        default: return skip("row \(id): uuid must be text")
        }
        let place = CatalogPlace(
            identity: BeaconIdentity(uuid: uuid ?? CatalogPlace.unspecifiedUUID, major: major16, minor: minor16),
            cliente: cliente, titulo: titulo, url: url, id: id, anyUUID: uuid == nil, updatedAt: updatedAt,
            version: row["version"]?.stringValue ?? "")
        return CatalogPulledRow(change: .upsert(place), position: position)
    }
}
