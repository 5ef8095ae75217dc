/// The keys of `BeaconIdentity`'s table hash: random, drawn once per process (like `Hasher`'s own key).
@usableFromInline
enum IdentityHashKeys {
    @usableFromInline
    static let pair: (high: UInt64, low: UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
}

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

    /// The UUID's two halves and major/minor as one word. (Folding all of it into one word before the hasher would
    /// let anyone in radio range craft UUIDs that collide whatever the hasher's key; Dictionary and Set use the
    /// faster `_rawHashValue(seed:)` below anyway.)
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid.high)
        hasher.combine(uuid.low)
        hasher.combine(UInt32(major) << 16 | UInt32(minor))
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
    ///
    /// Both halves are keyed with `IdentityHashKeys`, random per process as `Hasher`'s own key is: with public
    /// constants instead, a UUID whose low half cancels its constant would zero the product, and advertisements
    /// crafted that way would all land in one bucket (every lookup linear, the window frozen).
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        let keys = IdentityHashKeys.pair
        let keyed = uuid.high ^ UInt64(truncatingIfNeeded: seed) ^ keys.high
        let product = keyed.multipliedFullWidth(by: uuid.low ^ keys.low)
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

extension BeaconIdentity {
    /// What a search finds a beacon by besides its names: its UUID and "major/minor" ("7/42").
    public var searchFields: [String] { [uuid.description, "\(major)/\(minor)"] }
}
