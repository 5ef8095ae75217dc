/// One iBeacon heard by a source, with the radio facts the ranging engine needs.
public struct BeaconSighting: Sendable, Equatable {
    public var beacon: IBeacon
    public var address: BluetoothAddress
    /// Received signal strength in dBm.
    public var rssi: Int8
    /// Seconds on the source's clock: monotonic seconds for radios, the recording's clock for replays.
    public var time: Double

    public init(beacon: IBeacon, address: BluetoothAddress, rssi: Int8, time: Double) {
        self.beacon = beacon
        self.address = address
        self.rssi = rssi
        self.time = time
    }
}
