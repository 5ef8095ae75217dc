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

    /// One 64-bit word into the hasher instead of four fields: identities are looked up for every advertisement.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid.high &* 0x9E37_79B9_7F4A_7C15 ^ uuid.low ^ UInt64(major) << 16 ^ UInt64(minor))
    }

    /// What `Dictionary` and `Set` hash an identity with (their keys' `_rawHashValue(seed:)`). The default runs
    /// `Hasher` (a whole SipHash) per lookup, which was a fifth of the beacon session's time: ranging and regions
    /// look an identity up for every advertisement, the list builder several times per row and tick.
    ///
    /// Instead: the UUID's halves, the first one keyed with the table's seed, multiplied into 128 bits and folded
    /// back (wyhash's step: UUIDs a bit apart do not cancel out as they would if merely xored together), major
    /// and minor added in, and MurmurHash3's 64-bit finalizer over it all, which carries every input bit into the
    /// low bits a table's buckets use. Equal identities hash equally; for one UUID, different majors and minors
    /// never collide here (both steps after the product are one-to-one).
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        let keyed = uuid.high ^ UInt64(truncatingIfNeeded: seed) ^ 0xA076_1D64_78BD_642F
        let product = keyed.multipliedFullWidth(by: uuid.low ^ 0xE703_7ED1_A0B4_28DB)
        var x = product.high ^ product.low ^ (UInt64(major) << 16 | UInt64(minor))
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return Int(truncatingIfNeeded: x)
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
