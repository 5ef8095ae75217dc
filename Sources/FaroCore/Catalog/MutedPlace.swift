/// A place the user quieted (docs/notifications.md, "Quiet places"): entering it raises no zone notification, while
/// it is still listed, ranged and recorded in visits. Kept by `key`, with the names it had when it was quieted so
/// that Preferences and `faro muted` can name it.
public struct MutedPlace: Equatable, Hashable, Sendable {
    /// The catalog row's id, or `UUID/major/minor` of its beacon for a row without one (`key(for:)`).
    public var key: String
    public var business: String
    public var title: String
    /// Seconds since 1970, UTC.
    public var mutedAt: Double

    public init(key: String, business: String, title: String, mutedAt: Double) {
        self.key = key
        self.business = business
        self.title = title
        self.mutedAt = mutedAt
    }

    /// The muted place of `place`, quieted at `time`.
    public init(_ place: CatalogPlace, at time: Double) {
        self.init(key: MutedPlace.key(for: place), business: place.cliente, title: place.titulo, mutedAt: time)
    }

    /// What a place is muted by: its catalog row's id, or its beacon (`UUID/major/minor`, the UUID lower-case and
    /// dashed) when the row has none.
    public static func key(for place: CatalogPlace) -> String {
        guard place.id.isEmpty else { return place.id }
        let identity = place.identity
        return "\(identity.uuid)/\(identity.major)/\(identity.minor)"
    }
}
