/// One iBeacon heard by a source: from which address, how strongly and when. It is what every source delivers and
/// what ranging and regions take; a source makes it from the decoder's `DecodedBeacon` (what the bytes said) and
/// what it knows besides the bytes (its clock, BlueZ's address and RSSI).
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

    /// The sighting a source makes of what the decoder read, having heard it from `address` at `rssi` at `time`:
    /// what the bytes themselves state (an HCI report's address and RSSI) wins over what the source says.
    @inlinable
    public init(_ decoded: DecodedBeacon, heardFrom address: BluetoothAddress, rssi: Int8, at time: Double) {
        self.init(beacon: decoded.beacon, address: decoded.address ?? address, rssi: decoded.rssi ?? rssi, time: time)
    }
}
