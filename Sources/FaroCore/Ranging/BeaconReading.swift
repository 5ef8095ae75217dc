/// One reading of one beacon as the session kept it: when, from which address, how strong, and what the filter and
/// the distance model made of it right after (docs/beacon-page.md).
public struct BeaconReading: Sendable, Equatable {
    /// Seconds on the source's clock.
    public var time: Double
    public var address: BluetoothAddress
    /// The raw RSSI, dBm.
    public var rssi: Int8
    /// The filter's output after this reading, dBm.
    public var filtered: Double
    /// The estimated distance after this reading, metres; nil when unknown.
    public var distance: Double?

    public init(time: Double, address: BluetoothAddress, rssi: Int8, filtered: Double, distance: Double?) {
        self.time = time
        self.address = address
        self.rssi = rssi
        self.filtered = filtered
        self.distance = distance
    }

    public var proximity: Proximity { Proximity(distance: distance) }
}
