/// One beacon in range at a tick, as the list shows it.
public struct RangedBeacon: Sendable, Equatable {
    public var identity: BeaconIdentity
    public var measuredPower: Int8
    /// The 1 m power the distance was computed with when a calibration or adapter offset changed it; nil when it
    /// is the advertised one.
    public var calibratedPower: Double? = nil
    /// The address of the latest advertisement (a beacon may rotate addresses).
    public var address: BluetoothAddress
    /// The latest raw RSSI, dBm.
    public var rssi: Int8
    /// The filter's smoothed RSSI, dBm; nil when no usable sample arrived yet.
    public var smoothedRSSI: Double?
    /// Estimated distance in metres; nil when unknown.
    public var distance: Double?
    public var proximity: Proximity
    public var firstSeen: Double
    public var lastSeen: Double
    /// Distance at each of the last ticks, oldest first; NaN where it was unknown.
    public var history: DistanceHistory

    public init(
        identity: BeaconIdentity, measuredPower: Int8, address: BluetoothAddress, rssi: Int8,
        smoothedRSSI: Double?, distance: Double?, proximity: Proximity, firstSeen: Double, lastSeen: Double,
        history: DistanceHistory
    ) {
        self.identity = identity
        self.measuredPower = measuredPower
        self.address = address
        self.rssi = rssi
        self.smoothedRSSI = smoothedRSSI
        self.distance = distance
        self.proximity = proximity
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.history = history
    }
}
