/// The local catalog in memory, indexed for the one question asked per sighting: which place is this beacon?
/// A row with the beacon's UUID wins over a UUID-less row with the same major and minor.
public struct CatalogIndex: Equatable, Sendable {
    /// Every place, in a stable order (major, minor, UUID, row id).
    public let places: [CatalogPlace]
    private let byMajorMinor: [UInt32: [CatalogPlace]]

    public init(_ places: [CatalogPlace] = []) {
        let sorted = places.sorted {
            ($0.identity.major, $0.identity.minor, $0.anyUUID ? 1 : 0, $0.identity.uuid, $0.id)
                < ($1.identity.major, $1.identity.minor, $1.anyUUID ? 1 : 0, $1.identity.uuid, $1.id)
        }
        self.places = sorted
        var index: [UInt32: [CatalogPlace]] = [:]
        for place in sorted { index[CatalogIndex.key(place.identity), default: []].append(place) }
        byMajorMinor = index
    }

    public static func == (a: CatalogIndex, b: CatalogIndex) -> Bool { a.places == b.places }

    private static func key(_ identity: BeaconIdentity) -> UInt32 {
        UInt32(identity.major) << 16 | UInt32(identity.minor)
    }

    public var count: Int { places.count }
    public var isEmpty: Bool { places.isEmpty }

    /// The place of a sighted beacon, bound to it (a UUID-less row takes the beacon's UUID), or nil.
    public func place(for beacon: BeaconIdentity) -> CatalogPlace? {
        guard let candidates = byMajorMinor[CatalogIndex.key(beacon)] else { return nil }
        let match =
            candidates.first { !$0.anyUUID && $0.identity.uuid == beacon.uuid } ?? candidates.first { $0.anyUUID }
        return match?.bound(to: beacon)
    }

    /// Whether `place(for:)` finds a place, without binding a copy of it (asked for every beacon in range at
    /// every tick).
    public func contains(_ beacon: BeaconIdentity) -> Bool {
        guard let candidates = byMajorMinor[CatalogIndex.key(beacon)] else { return false }
        return candidates.contains { $0.anyUUID || $0.identity.uuid == beacon.uuid }
    }

    /// Monitoring regions for the catalogued places that name their UUID (a UUID-less row becomes a region once a
    /// beacon with its major and minor is sighted: `region(for:)`).
    public var regions: [Region] {
        places.filter { !$0.anyUUID }.map { CatalogIndex.region($0.identity) }
    }

    /// The region of a sighted, catalogued beacon.
    public func region(for beacon: BeaconIdentity) -> Region? {
        contains(beacon) ? CatalogIndex.region(beacon) : nil
    }

    /// The region of one beacon: its UUID, major and minor; the identifier is `uuid/major/minor`.
    public static func region(_ identity: BeaconIdentity) -> Region {
        Region(
            identifier: "\(identity.uuid)/\(identity.major)/\(identity.minor)", uuid: identity.uuid,
            major: identity.major, minor: identity.minor)
    }

    /// The beacons among `beacons` whose place differs between `old` and `self` (named, renamed or gone): the rows
    /// to redraw and the entries to announce once the catalog learns of them.
    public func changes(from old: CatalogIndex, among beacons: some Sequence<BeaconIdentity>) -> [BeaconIdentity] {
        beacons.filter { old.place(for: $0) != place(for: $0) }
    }
}
