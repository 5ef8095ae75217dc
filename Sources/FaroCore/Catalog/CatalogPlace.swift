/// One place of the backend's catalog (table `beacons`, docs/backend.md): the business (`cliente`), the site title
/// (`titulo`) and the microsite URL tied to a beacon's major and minor, and its UUID where the catalog holds one.
/// The one catalog type everywhere: what the sync stores, what the list shows and what a notification names.
public struct CatalogPlace: Equatable, Hashable, Sendable {
    /// The beacon this place belongs to. For a row that holds no UUID (`anyUUID`), the UUID is the one of the beacon
    /// it was matched to (`bound(to:)`), or all zeros before that.
    public var identity: BeaconIdentity
    public var cliente: String
    public var titulo: String
    public var url: String
    /// The backend's row id ("" for a place that did not come from a row).
    public var id: String
    /// True when the catalog row has no UUID: the place is every beacon with this major and minor.
    public var anyUUID: Bool
    /// The row's `updatedAt` as the backend wrote it ("" when unknown).
    public var updatedAt: String
    /// The row's `version` as the backend wrote it ("" when unknown).
    public var version: String

    public init(
        identity: BeaconIdentity, cliente: String, titulo: String, url: String, id: String = "",
        anyUUID: Bool = false, updatedAt: String = "", version: String = ""
    ) {
        self.version = version
        self.identity = identity
        self.cliente = cliente
        self.titulo = titulo
        self.url = url
        self.id = id
        self.anyUUID = anyUUID
        self.updatedAt = updatedAt
    }

    /// The all-zero UUID a UUID-less row carries until it is bound to a sighted beacon.
    public static let unspecifiedUUID = BeaconUUID(high: 0, low: 0)

    /// The catalog row's UUID, nil when the row holds none.
    public var uuid: BeaconUUID? { anyUUID ? nil : identity.uuid }

    /// The beacon whose page goes with this place: the row's own, or the one a UUID-less row was matched to; nil for
    /// a UUID-less row not matched yet.
    public var beacon: BeaconIdentity? {
        anyUUID && identity.uuid == BeaconUUID(high: 0, low: 0) ? nil : identity
    }

    /// Whether this place is the one of beacon `beacon`: same major and minor, and the same UUID unless the row
    /// holds none.
    public func matches(_ beacon: BeaconIdentity) -> Bool {
        beacon.major == identity.major && beacon.minor == identity.minor && (anyUUID || beacon.uuid == identity.uuid)
    }

    /// This place as the place of the sighted `beacon` (a UUID-less row takes the beacon's UUID).
    public func bound(to beacon: BeaconIdentity) -> CatalogPlace {
        var copy = self
        copy.identity = beacon
        return copy
    }
}
