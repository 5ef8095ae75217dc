/// What a calibration measured.
public struct CalibrationResult: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// The beacon's 1 m power as measured (dBm).
    public var measuredPower: Double
    /// What the beacon advertises as its 1 m power (dBm).
    public var advertisedPower: Int8
    /// How many readings the estimate used.
    public var readings: Int
    /// `measuredPower − advertisedPower`: how far this adapter reads from the advertised power.
    public var adapterOffset: Double { measuredPower - Double(advertisedPower) }
    /// The distance the readings gave with the advertised power, and with the measured one.
    public var distanceBefore: Double?
    public var distanceAfter: Double?
}
