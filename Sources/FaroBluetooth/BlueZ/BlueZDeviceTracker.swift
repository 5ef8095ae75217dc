import FaroCore

/// The `org.bluez.Device1` properties Faro reads, as one D-Bus message carried them. Absent properties are nil;
/// properties present with the wrong D-Bus type are named in `malformed` and otherwise ignored.
public struct DeviceProperties: Sendable, Equatable {
    /// `Address` (`s`), e.g. `C0:FF:EE:00:00:01`.
    public var address: String?
    /// `Adapter` (`o`): the adapter's object path.
    public var adapter: String?
    /// `RSSI` (`n`) in dBm.
    public var rssi: Int16?
    /// `ManufacturerData` (`a{qv}`): payload bytes by company id, company bytes stripped.
    public var manufacturerData: [UInt16: [UInt8]]?
    /// Properties a PropertiesChanged signal declared invalid (no longer known), e.g. `RSSI` after discovery.
    public var invalidated: [String]
    /// Names of properties that came with an unexpected type (a misbehaving device or daemon).
    public var malformed: [String]

    public init(
        address: String? = nil, adapter: String? = nil, rssi: Int16? = nil,
        manufacturerData: [UInt16: [UInt8]]? = nil, invalidated: [String] = [], malformed: [String] = []
    ) {
        self.address = address
        self.adapter = adapter
        self.rssi = rssi
        self.manufacturerData = manufacturerData
        self.invalidated = invalidated
        self.malformed = malformed
    }

    /// Whether the message reports a received advertisement (an RSSI or manufacturer data), not only a change of
    /// state such as the RSSI cleared when a discovery ends.
    public var isAdvertisement: Bool { rssi != nil || manufacturerData != nil }
}

/// BlueZ's devices as Faro follows them: turns `InterfacesAdded`, `PropertiesChanged` and `InterfacesRemoved` for
/// `Device1` objects into sightings. Pure: no D-Bus, so every rule below is tested without a bus.
///
/// Rules, because several clients' discovery filters are merged inside bluetoothd and devices send what they like:
/// - Only devices of the chosen adapter count (the object path is under the adapter's path).
/// - A sighting needs a valid iBeacon in the Apple (0x004C) manufacturer data and an RSSI from −127 to +20 dBm;
///   anything else (other companies, short frames, RSSI 0 or absurd values, wrong D-Bus types) is dropped quietly.
/// - A PropertiesChanged that carries RSSI or ManufacturerData is one more advertisement: it yields a sighting with
///   the device's latest values. Other changes (Connected, Name, …) yield nothing.
/// - A device whose Address is missing gets it from its object path (`…/dev_C0_FF_EE_00_00_01`), so a change that
///   overtakes the InterfacesAdded still counts.
public struct BlueZDeviceTracker: Sendable {
    /// One device as last seen.
    struct Device: Sendable {
        var address: BluetoothAddress?
        var rssi: Int8?
        var beacon: IBeacon?
    }

    /// The adapter whose devices count (`/org/bluez/hci0`), or nil for none yet.
    public private(set) var adapterPath: String?
    private var devices: [String: Device] = [:]
    /// Advertisements that were dropped because a value was malformed (for diagnostics).
    public private(set) var rejectedCount = 0

    public init(adapterPath: String? = nil) { self.adapterPath = adapterPath }

    /// How many devices are being followed.
    public var deviceCount: Int { devices.count }

    /// Follows another adapter (or none), forgetting every device.
    public mutating func follow(adapterPath: String?) {
        self.adapterPath = adapterPath
        devices.removeAll()
    }

    /// Whether an object path is a device of the followed adapter.
    public func isOurs(_ path: String) -> Bool {
        guard let adapterPath, path.count > adapterPath.count + 1, path.hasPrefix(adapterPath) else { return false }
        let rest = path.dropFirst(adapterPath.count)
        return rest.first == "/" && !rest.dropFirst().contains("/")
    }

    /// A device appeared (InterfacesAdded with Device1, or GetManagedObjects at start).
    public mutating func added(path: String, properties: DeviceProperties, at time: Double) -> BeaconSighting? {
        guard isOurs(path) else { return nil }
        devices[path] = Device()
        return update(path: path, properties, at: time, isAdvertisement: true)
    }

    /// A device's properties changed.
    public mutating func changed(path: String, properties: DeviceProperties, at time: Double) -> BeaconSighting? {
        guard isOurs(path) else { return nil }
        let advertisement = properties.rssi != nil || properties.manufacturerData != nil
        return update(path: path, properties, at: time, isAdvertisement: advertisement)
    }

    /// A device went away (InterfacesRemoved with Device1). Returns whether it was followed.
    @discardableResult
    public mutating func removed(path: String) -> Bool {
        devices.removeValue(forKey: path) != nil
    }

    private mutating func update(
        path: String, _ p: DeviceProperties, at time: Double,
        isAdvertisement: Bool
    ) -> BeaconSighting? {
        var device = devices[path] ?? Device()
        if !p.malformed.isEmpty { rejectedCount += 1 }
        if device.address == nil {
            device.address = p.address.flatMap(BluetoothAddress.init) ?? BlueZDeviceTracker.address(fromPath: path)
        }
        if p.invalidated.contains("RSSI") { device.rssi = nil }
        if p.invalidated.contains("ManufacturerData") { device.beacon = nil }
        var garbled = false
        if let rssi = p.rssi {
            if let plausible = BlueZDeviceTracker.plausibleRSSI(rssi) {
                device.rssi = plausible
            } else {
                garbled = true
            }
        }
        if let data = p.manufacturerData {
            device.beacon = data[IBeaconDecoder.appleCompanyID].flatMap(BlueZDeviceTracker.iBeacon(applePayload:))
        }
        devices[path] = device
        if garbled { rejectedCount += 1 }
        guard isAdvertisement, !garbled, let beacon = device.beacon, let rssi = device.rssi,
            let address = device.address
        else { return nil }
        return BeaconSighting(beacon: beacon, address: address, rssi: rssi, time: time)
    }

    /// The iBeacon in Apple's `ManufacturerData` entry (BlueZ strips the company id into the key), decoded by the
    /// production path as manufacturer data with the little-endian company id put back in front.
    static func iBeacon(applePayload payload: [UInt8]) -> IBeacon? {
        var beacon: IBeacon?
        let msd = [0x4C, 0x00] + payload
        _ = msd.withUnsafeBytes { AdvertisementDecoder.forEachBeacon(in: $0, kind: .msd) { beacon = $0.beacon } }
        return beacon
    }

    /// RSSI values a radio can report (−127…+20 dBm); 0 and values outside are what broken stacks send.
    static func plausibleRSSI(_ value: Int16) -> Int8? {
        guard (-127...20).contains(value), value != 0 else { return nil }
        return Int8(value)
    }

    /// The address BlueZ encodes in a device's object path: `…/dev_C0_FF_EE_00_00_01`.
    public static func address(fromPath path: String) -> BluetoothAddress? {
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        return BluetoothAddress(String(last.dropFirst(4).map { $0 == "_" ? ":" : $0 }))
    }

    /// The adapter name in an adapter object path (`/org/bluez/hci0` → `hci0`).
    public static func adapterName(fromPath path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
