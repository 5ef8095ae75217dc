/// A set of beacons watched together, like CoreLocation's `CLBeaconRegion`: a UUID with optional major and minor
/// (nil = any).
public struct Region: Hashable, Sendable {
    public var identifier: String
    public var uuid: BeaconUUID
    public var major: UInt16?
    public var minor: UInt16?

    public init(identifier: String, uuid: BeaconUUID, major: UInt16? = nil, minor: UInt16? = nil) {
        self.identifier = identifier
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Whether a beacon belongs to the region.
    public func contains(_ beacon: BeaconIdentity) -> Bool {
        beacon.uuid == uuid && (major == nil || major == beacon.major) && (minor == nil || minor == beacon.minor)
    }
}
