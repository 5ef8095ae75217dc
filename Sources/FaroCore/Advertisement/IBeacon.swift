/// The identity of one iBeacon: proximity UUID, major and minor. Two advertisements with the same identity are
/// the same beacon for ranging and regions, whatever Bluetooth address carried them.
public struct BeaconIdentity: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public var description: String { "\(uuid) \(major)/\(minor)" }

    /// The UUID's two halves and major/minor as one word.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid.high)
        hasher.combine(uuid.low)
        hasher.combine(UInt32(major) << 16 | UInt32(minor))
    }

    public static func < (a: BeaconIdentity, b: BeaconIdentity) -> Bool {
        (a.uuid, a.major, a.minor) < (b.uuid, b.major, b.minor)
    }
}

/// One decoded iBeacon frame: identity plus the measured power (the RSSI expected at 1 m, a signed byte).
public struct IBeacon: Hashable, Sendable {
    public var identity: BeaconIdentity
    /// RSSI in dBm that the beacon's maker measured at one metre (0xC5 = −59).
    public var measuredPower: Int8

    public init(identity: BeaconIdentity, measuredPower: Int8) {
        self.identity = identity
        self.measuredPower = measuredPower
    }

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.init(identity: BeaconIdentity(uuid: uuid, major: major, minor: minor), measuredPower: measuredPower)
    }

    public var uuid: BeaconUUID { identity.uuid }
    public var major: UInt16 { identity.major }
    public var minor: UInt16 { identity.minor }
}
