import FaroBluetooth
import FaroCore
import Testing

/// The pure mapping of BlueZ device properties to sightings, without a bus.
struct BlueZDeviceTrackerTests {
    static let payload: [UInt8] = [0x02, 0x15] + Array(repeating: 0xAB, count: 16) + [0x00, 0x07, 0x01, 0x02, 0xC5]
    static let device = "/org/bluez/hci0/dev_C0_FF_EE_00_00_01"

    func tracker() -> BlueZDeviceTracker { BlueZDeviceTracker(adapterPath: "/org/bluez/hci0") }

    @Test func anIBeaconWithRSSIIsASighting() throws {
        var t = tracker()
        let result = t.added(
            path: Self.device,
            properties: DeviceProperties(
                address: "C0:FF:EE:00:00:01", rssi: -61, manufacturerData: [0x004C: Self.payload]), at: 5)
        let s = try #require(result)
        #expect(s.beacon.major == 7 && s.beacon.minor == 0x0102 && s.beacon.measuredPower == -59)
        #expect(s.address.description == "C0:FF:EE:00:00:01" && s.rssi == -61 && s.time == 5)
    }

    @Test func laterChangesReuseWhatIsKnown() throws {
        var t = tracker()
        let first = t.added(
            path: Self.device, properties: DeviceProperties(manufacturerData: [0x004C: Self.payload]),
            at: 1)
        #expect(first == nil, "no RSSI yet")
        let second = t.changed(path: Self.device, properties: DeviceProperties(rssi: -80), at: 2)
        let s = try #require(second)
        #expect(s.rssi == -80 && s.beacon.minor == 0x0102)
        #expect(s.address.description == "C0:FF:EE:00:00:01", "taken from the object path")
        let other = t.changed(path: Self.device, properties: DeviceProperties(), at: 3)
        #expect(other == nil, "Connected etc.")
        let invalidation = t.changed(path: Self.device, properties: DeviceProperties(invalidated: ["RSSI"]), at: 4)
        #expect(invalidation == nil)
        let withoutRSSI = t.changed(
            path: Self.device,
            properties: DeviceProperties(manufacturerData: [0x004C: Self.payload]), at: 5)
        #expect(withoutRSSI == nil, "RSSI was invalidated")
    }

    @Test func otherCompaniesAdaptersAndShortFramesAreIgnored() {
        var t = tracker()
        let nordic = t.added(
            path: Self.device,
            properties: DeviceProperties(rssi: -60, manufacturerData: [0x0059: Self.payload]), at: 1)
        #expect(nordic == nil)
        let otherAdapter = t.added(
            path: "/org/bluez/hci1/dev_C0_FF_EE_00_00_02",
            properties: DeviceProperties(rssi: -60, manufacturerData: [0x004C: Self.payload]), at: 1)
        #expect(otherAdapter == nil)
        let short = t.added(
            path: Self.device,
            properties: DeviceProperties(
                rssi: -60, manufacturerData: [0x004C: Array(Self.payload.prefix(10))]), at: 1)
        #expect(short == nil)
        #expect(!t.isOurs("/org/bluez/hci0"), "the adapter itself")
        #expect(!t.isOurs("/org/bluez/hci00/dev_C0_FF_EE_00_00_01"), "a prefix of another adapter's path")
        #expect(!t.isOurs("/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service0001"), "a GATT object")
    }

    @Test func implausibleRSSIAndMalformedValuesAreCounted() throws {
        var t = tracker()
        _ = t.added(
            path: Self.device, properties: DeviceProperties(rssi: -60, manufacturerData: [0x004C: Self.payload]),
            at: 1)
        let zero = t.changed(path: Self.device, properties: DeviceProperties(rssi: 0), at: 2)
        let huge = t.changed(path: Self.device, properties: DeviceProperties(rssi: 500), at: 3)
        let malformed = t.changed(path: Self.device, properties: DeviceProperties(malformed: ["RSSI"]), at: 4)
        #expect(zero == nil && huge == nil && malformed == nil)
        #expect(t.rejectedCount == 3)
        let good = t.changed(path: Self.device, properties: DeviceProperties(rssi: -70), at: 5)
        let s = try #require(good)
        #expect(s.rssi == -70)
    }

    @Test func removalAndAdapterChangesForget() {
        var t = tracker()
        _ = t.added(path: Self.device, properties: DeviceProperties(rssi: -60), at: 1)
        #expect(t.deviceCount == 1)
        let once = t.removed(path: Self.device)
        let twice = t.removed(path: Self.device)
        #expect(once && !twice)
        _ = t.added(path: Self.device, properties: DeviceProperties(rssi: -60), at: 1)
        t.follow(adapterPath: "/org/bluez/hci1")
        #expect(t.deviceCount == 0)
        #expect(BlueZDeviceTracker.address(fromPath: Self.device)?.description == "C0:FF:EE:00:00:01")
        #expect(BlueZDeviceTracker.address(fromPath: "/org/bluez/hci0") == nil)
        #expect(BlueZDeviceTracker.adapterName(fromPath: "/org/bluez/hci3") == "hci3")
    }
}

/// How bluetoothd's errors are sorted, and what the user is told.
struct BlueZReplyTests {
    @Test func errorNamesMapToWhatFaroDoes() {
        #expect(BlueZReply.classify(errorName: "org.bluez.Error.InProgress", message: "") == .done)
        #expect(
            BlueZReply.classify(errorName: "org.bluez.Error.NotReady", message: "Resource Not Ready") == .poweredOff)
        #expect(
            BlueZReply.classify(errorName: "org.freedesktop.DBus.Error.AccessDenied", message: "Rejected send")
                == .accessDenied("Rejected send"))
        #expect(
            BlueZReply.classify(errorName: "org.freedesktop.DBus.Error.ServiceUnknown", message: "") == .serviceGone)
        #expect(BlueZReply.classify(errorName: "org.freedesktop.DBus.Error.UnknownObject", message: "") == .adapterGone)
        #expect(
            BlueZReply.classify(errorName: "org.bluez.Error.Failed", message: "boom")
                == .failed(name: "org.bluez.Error.Failed", message: "boom"))
    }

    @Test func statesAndErrorsSayWhatToDo() {
        #expect(SourceState.waitingForService.description.contains("--source hci"))
        #expect(SourceState.poweredOff(adapter: "hci0").description.contains("--power-on"))
        #expect(SourceState.adapterMissing(requested: "hci1").description.contains("hci1"))
        #expect(ScanError.bluezNotRunning.description.contains("--source hci"))
        #expect(ScanError.bluezNotRunning.description.contains("--source demo"))
        #expect(
            ScanError.bluezCallFailed(method: "StartDiscovery", errorName: "org.bluez.Error.Failed", message: "x")
                .description.contains("StartDiscovery"))
    }
}
