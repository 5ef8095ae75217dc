/// Where an incremental catalog pull stands: the (`updatedAt`, `id`) of the last row received, in the server's
/// order (`$orderby=updatedAt,id`). The next request asks for rows strictly after it —
/// `updatedAt gt T or (updatedAt eq T and id gt I)` — so rows that share the boundary timestamp are neither lost
/// (as with `gt T` alone) nor fetched again on every pull (as with the official clients' `ge T`).
public struct CatalogCursor: Equatable, Sendable {
    /// The `updatedAt` text exactly as the server sent it (sent back verbatim in the filter).
    public var updatedAt: String
    public var id: String

    public init(updatedAt: String, id: String) {
        self.updatedAt = updatedAt
        self.id = id
    }

    /// The instant of `updatedAt`, nil when the server's text is not a timestamp.
    public var instant: CatalogTimestamp? { CatalogTimestamp(updatedAt) }

    /// The OData `$filter` for the rows after this cursor (unencoded), in the 2.0.0 spelling.
    public var filter: String { filter(for: .v2) }

    /// The OData `$filter` for the rows after this cursor (unencoded). The timestamp is the server's own text: a
    /// `datetimeoffset'…'` literal for 2.0.0, `cast(…,Edm.DateTimeOffset)` for 3.0.0 (OData v4 has no such literal).
    public func filter(for generation: BackendProtocol) -> String {
        let t: String
        switch generation {
        case .v2: t = "datetimeoffset'\(CatalogCursor.escape(updatedAt))'"
        case .v3: t = "cast(\(updatedAt.replacing(" ", with: "T")),Edm.DateTimeOffset)"
        }
        return "(updatedAt gt \(t)) or ((updatedAt eq \(t)) and (id gt '\(CatalogCursor.escape(id))'))"
    }

    /// Whether `updatedAt` names a whole second (no fraction, or only zeros): a server whose clock keeps seconds
    /// can stamp a later change of a row with the second already passed, so a pull that starts after such a cursor
    /// reads that second again (`rereadFilter`).
    public var isWholeSecond: Bool {
        let text = updatedAt.utf8
        guard let dot = text.firstIndex(of: UInt8(ascii: ".")) else { return true }
        return text[text.index(after: dot)...].prefix { $0 >= 0x30 && $0 <= 0x39 }.allSatisfy { $0 == 0x30 }
    }

    /// The OData `$filter` for the rows at or after this cursor's second: `updatedAt ge T`.
    public func rereadFilter(for generation: BackendProtocol) -> String {
        switch generation {
        case .v2: return "updatedAt ge datetimeoffset'\(CatalogCursor.escape(updatedAt))'"
        case .v3: return "updatedAt ge cast(\(updatedAt.replacing(" ", with: "T")),Edm.DateTimeOffset)"
        }
    }

    /// Whether a row with (`instant`, `id`) comes after this cursor in the server's order. Ids are compared by
    /// their UTF-8 bytes, as SQLite and the tables protocol's reference server do.
    public func precedes(instant: CatalogTimestamp, id: String) -> Bool {
        guard let mine = self.instant else { return true }
        if instant != mine { return mine < instant }
        return self.id.utf8.lexicographicallyPrecedes(id.utf8)
    }

    /// An OData string literal's body: `'` doubled.
    static func escape(_ text: String) -> String { text.replacing("'", with: "''") }
}
