import FaroCore

/// One visit as "Lugares visitados" shows it (times in seconds since 1970, UTC).
public struct VisitEntry: Sendable, Equatable {
    public var id: Int64
    public var place: CatalogPlace
    public var enteredAt: Double
    public var leftAt: Double?
    public var closest: Double?

    public init(id: Int64, place: CatalogPlace, enteredAt: Double, leftAt: Double?, closest: Double?) {
        self.id = id
        self.place = place
        self.enteredAt = enteredAt
        self.leftAt = leftAt
        self.closest = closest
    }
}
