/// Something that happened to a region.
public struct RegionEvent: Hashable, Sendable {
    public enum Kind: String, Sendable { case enter, exit }
    public var kind: Kind
    public var region: Region
    public var time: Double
    /// For an entry, the beacon whose sighting caused it.
    public var beacon: BeaconIdentity?
    /// False for an entry inside the cool-down after the last announced one: the entry happened, but users should
    /// not be told again. Always true for exits.
    public var announce: Bool

    public init(kind: Kind, region: Region, time: Double, beacon: BeaconIdentity?, announce: Bool) {
        self.kind = kind
        self.region = region
        self.time = time
        self.beacon = beacon
        self.announce = announce
    }
}
