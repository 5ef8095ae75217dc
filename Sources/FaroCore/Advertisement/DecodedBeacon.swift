/// What the decoder read from one advertisement's bytes: an iBeacon frame, and the sender's address and RSSI where
/// the bytes themselves carry them (only an HCI LE Advertising Report does; raw AD structures and manufacturer
/// data do not). It is not yet a sighting: it has no time, and for most forms no address or RSSI. A source makes
/// a `BeaconSighting` of it by adding what it knows besides the bytes (its clock, and the address and RSSI that
/// BlueZ or a replay line give), which is what ranging and regions take.
public struct DecodedBeacon: Hashable, Sendable {
    public var beacon: IBeacon
    /// The sender's address as the HCI report states it; nil for the other forms.
    public var address: BluetoothAddress?
    /// The RSSI as the HCI report states it; nil for the other forms, and where the controller said 127.
    public var rssi: Int8?

    @inlinable
    public init(beacon: IBeacon, address: BluetoothAddress?, rssi: Int8?) {
        self.beacon = beacon
        self.address = address
        self.rssi = rssi
    }
}
