import FaroBluetooth
import FaroCore
import FaroTestSupport
import Foundation
import Testing

private let uuidA = "f7826da6-4fa2-4e98-8024-bc5b71e0893e"
private let uuidB = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"

/// BlueZSource against python-dbusmock playing bluetoothd (Faro's template) on a private bus.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct BlueZSourceTests {
    @Test func beaconsAppearWithTheirIdentities() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 2, rssi: -60)
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.contains(.scanning(adapter: "hci0")) })
        // A device bluetoothd already knew (GetManagedObjects), then a new one (InterfacesAdded).
        #expect(driver.run { driver.sightings.count >= 1 })
        try mock.addBeacon("C0:FF:EE:00:00:02", uuid: uuidB, major: 300, minor: 65535, power: -65, rssi: -75)
        #expect(driver.run { driver.sightings.count >= 2 })

        let first = try #require(driver.sightings.first)
        #expect(first.beacon.uuid.description.lowercased() == uuidA)
        #expect(first.beacon.major == 1 && first.beacon.minor == 2 && first.beacon.measuredPower == -59)
        #expect(first.address.description == "C0:FF:EE:00:00:01")
        #expect(first.rssi == -60)
        let second = driver.sightings[1]
        #expect(second.beacon.uuid.description.lowercased() == uuidB)
        #expect(second.beacon.major == 300 && second.beacon.minor == 65535 && second.beacon.measuredPower == -65)
        #expect(second.address.description == "C0:FF:EE:00:00:02" && second.rssi == -75)
        #expect(driver.failures.isEmpty)
        #expect(driver.stop(source))
    }

    @Test func rssiUpdatesMoveTheDistance() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -55)
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.contains(.scanning(adapter: "hci0")) })

        var pipeline = BeaconPipeline(
            ranging: RangingEngine(strategy: .faroDefault), regions: RegionMonitor(regions: []))
        var fed = 0
        func distance(afterAdvertising rssi: Int16, times: Int) throws -> Double? {
            for _ in 0..<times {
                try mock.advertise("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: rssi)
            }
            let target = driver.sightings.count + times
            #expect(driver.run { driver.sightings.count >= target })
            for s in driver.sightings.dropFirst(fed) {
                pipeline.accept(s.beacon, address: s.address, rssi: s.rssi, at: s.time) { _ in }
            }
            fed = driver.sightings.count
            return pipeline.tick(at: driver.sightings.last?.time ?? 0) { _ in }.beacons.first?.distance
        }
        let near = try #require(try distance(afterAdvertising: -50, times: 12))
        let far = try #require(try distance(afterAdvertising: -85, times: 20))
        #expect(far > near * 2, "distance went from \(near) m to \(far) m")
        #expect(driver.sightings.suffix(5).allSatisfy { $0.rssi == -85 })
        #expect(driver.stop(source))
    }

    @Test func removedDevicesAreForgotten() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -60)
        try mock.addBeacon("C0:FF:EE:00:00:02", uuid: uuidA, major: 1, minor: 2, rssi: -60)
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { source.deviceCount == 2 })
        try mock.control.call(
            path: "/org/bluez/hci0", "org.bluez.Adapter1", "RemoveDevice",
            "(objectpath '\(BlueZMock.devicePath("C0:FF:EE:00:00:01"))',)")
        #expect(driver.run { source.deviceCount == 1 })
        let before = driver.sightings.count
        try mock.advertise("C0:FF:EE:00:00:02", uuid: uuidA, major: 1, minor: 2, rssi: -61)
        #expect(driver.run { driver.sightings.count == before + 1 })
        #expect(driver.sightings.last?.beacon.minor == 2)
        #expect(driver.stop(source))
    }

    @Test func adapterRemovedAddedAndPoweredOff() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.last == .scanning(adapter: "hci0") })

        try mock.control.call(path: "/", "org.bluez.Mock", "RemoveAdapterWithDevices", "('hci0',)")
        #expect(driver.run { driver.states.last == .adapterMissing(requested: nil) })
        try mock.addAdapter()
        #expect(driver.run { driver.states.last == .resumed(adapter: "hci0") })
        try mock.addBeacon("C0:FF:EE:00:00:03", uuid: uuidB, major: 7, minor: 8, rssi: -70)
        #expect(driver.run { driver.sightings.contains { $0.beacon.major == 7 } })

        try mock.setPowered(false)
        #expect(driver.run { driver.states.last == .poweredOff(adapter: "hci0") })
        try mock.setPowered(true)
        #expect(driver.run { driver.states.last == .resumed(adapter: "hci0") })
        // The re-added adapter (a new object) was asked to discover twice: when it appeared, and after power came back.
        let starts = try mock.callCount("StartDiscovery")
        let log = try mock.calls("StartDiscovery")
        #expect(starts == 2, "\(log)")
        #expect(driver.failures.isEmpty)
        #expect(driver.stop(source))
    }

    @Test func powersTheAdapterOnOnlyWhenAsked() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.setPowered(false)
        let polite = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try polite.start(source)
        #expect(polite.run { polite.states.last == .poweredOff(adapter: "hci0") })
        polite.settle(0.3)
        #expect(try !mock.isPowered())
        #expect(polite.stop(source))

        let eager = SourceDriver()
        let powering = BlueZSource(options: .init(powerOn: true, busAddress: mock.address))
        try eager.start(powering)
        #expect(eager.run { eager.states.last == .scanning(adapter: "hci0") })
        #expect(eager.states.first == .poweredOff(adapter: "hci0"))
        #expect(try mock.isPowered())
        #expect(eager.stop(powering))
    }

    @Test func followsTheAdapterItWasToldToUse() throws {
        let mock = try BlueZMock()
        try mock.addAdapter("hci0")
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(adapter: "hci1", busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.last == .adapterMissing(requested: "hci1") })
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -60, adapter: "hci0")
        try mock.addAdapter("hci1")
        #expect(driver.run { driver.states.last == .scanning(adapter: "hci1") })
        try mock.addBeacon("C0:FF:EE:00:00:02", uuid: uuidA, major: 2, minor: 2, rssi: -60, adapter: "hci1")
        #expect(driver.run { !driver.sightings.isEmpty })
        #expect(driver.sightings.allSatisfy { $0.beacon.major == 2 })
        #expect(try mock.callCount("StartDiscovery", path: "/org/bluez/hci0") == 0)
        #expect(try mock.callCount("StartDiscovery", path: "/org/bluez/hci1") == 1)
        #expect(driver.stop(source))
        #expect(throws: ScanError.invalidAdapterName("usb0")) {
            try SourceDriver().start(BlueZSource(options: .init(adapter: "usb0", busAddress: mock.address)))
        }
    }

    @Test func movesToAnotherPoweredAdapterAndStaysThere() throws {
        let mock = try BlueZMock()
        try mock.addAdapter("hci0")
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.last == .scanning(adapter: "hci0") })
        try mock.addAdapter("hci1")
        driver.settle(0.2)
        #expect(driver.states.last == .scanning(adapter: "hci0"), "a new adapter does not take over")
        try mock.setPowered(false, adapter: "hci0")
        #expect(driver.run { driver.states.last == .resumed(adapter: "hci1") })
        try mock.setPowered(true, adapter: "hci0")
        driver.settle(0.2)
        #expect(driver.states.last == .resumed(adapter: "hci1"))
        #expect(try mock.callCount("StartDiscovery", path: "/org/bluez/hci0") == 1)
        #expect(try mock.callCount("StartDiscovery", path: "/org/bluez/hci1") == 1)
        #expect(driver.stop(source))
        #expect(try mock.callCount("StopDiscovery", path: "/org/bluez/hci1") == 1)
    }

    @Test func survivesBluetoothdRestarting() throws {
        let mock = try BlueZMock(running: false)
        #expect(BlueZSource.isServiceRunning(busAddress: mock.address) == .success(false))
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.last == .waitingForService })

        try mock.start()
        #expect(BlueZSource.isServiceRunning(busAddress: mock.address) == .success(true))
        try mock.addAdapter()
        #expect(driver.run { driver.states.last == .scanning(adapter: "hci0") })
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -60)
        #expect(driver.run { driver.sightings.count == 1 })

        try mock.stop()
        #expect(driver.run { driver.states.last == .serviceGone })
        #expect(source.deviceCount == 0)
        try mock.start()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -62)
        #expect(driver.run { driver.states.last == .resumed(adapter: "hci0") })
        #expect(driver.run { driver.sightings.count == 2 })
        #expect(driver.sightings.last?.rssi == -62)
        // The new bluetoothd got its own filter and discovery request.
        #expect(try mock.calls("SetDiscoveryFilter").contains("'Transport'"))
        #expect(driver.failures.isEmpty)
        #expect(driver.stop(source))
    }

    @Test func setsTheDiscoveryFilterThenStartsAndStopsDiscovery() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(rssiFloor: -100, busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.last == .scanning(adapter: "hci0") })
        let filter = try mock.calls("SetDiscoveryFilter")
        #expect(filter.contains("'Transport': <'le'>"), "\(filter)")
        #expect(filter.contains("'DuplicateData': <true>"), "\(filter)")
        #expect(filter.contains("'RSSI': <int16 -100>"), "\(filter)")
        let log = try mock.control.call(path: "/org/bluez/hci0", "org.freedesktop.DBus.Mock", "GetCalls")
        let filterAt = try #require(log.range(of: "'SetDiscoveryFilter'"))
        let startAt = try #require(log.range(of: "'StartDiscovery'"))
        #expect(filterAt.lowerBound < startAt.lowerBound, "the filter is set before discovery starts")
        #expect(try mock.callCount("StopDiscovery") == 0)
        #expect(driver.stop(source))
        #expect(try mock.callCount("StopDiscovery") == 1)
    }

    @Test func garbageIsDroppedAndScanningGoesOn() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.last == .scanning(adapter: "hci0") })
        let path = BlueZMock.devicePath("C0:FF:EE:00:00:09")
        // The stock template's AddDevice: ManufacturerData typed aa{qv}.
        try mock.control.call(path: "/", "org.bluez.Mock", "AddDevice", "('hci0', 'C0:FF:EE:00:00:09', 'junk')")
        try mock.control.call(
            path: "/", "org.bluez.Mock", "EmitRaw",
            "('\(path)', {'RSSI': <'loud'>, 'ManufacturerData': <[byte 1, 2]>})")
        try mock.control.call(
            path: "/", "org.bluez.Mock", "EmitRaw",
            "('\(path)', {'RSSI': <int16 -60>, 'ManufacturerData': <{uint16 76: <[byte 2, 21, 1]>}>})")
        try mock.control.call(
            path: "/", "org.bluez.Mock", "EmitRaw",
            "('\(path)', {'RSSI': <int16 -60>, 'ManufacturerData': <{uint16 76: <'text'>}>})")
        try mock.control.call(
            path: "/", "org.bluez.Mock", "EmitRaw",
            "('\(path)', {'RSSI': <int16 30000>, 'ManufacturerData': <{uint16 89: <[byte 2, 21]>}>})")
        try mock.control.call(path: "/", "org.bluez.Mock", "EmitMisshapen", "('\(path)',)")
        #expect(driver.run { source.statistics.rejected >= 6 })
        #expect(driver.sightings.isEmpty)
        // A good beacon after all that still comes through.
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -60)
        #expect(driver.run { driver.sightings.count == 1 })
        #expect(driver.failures.isEmpty)
        #expect(driver.stop(source))
    }

    @Test func whatAMergedFilterLetsThroughIsCheckedAgain() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(rssiFloor: -80, busAddress: mock.address))
        try driver.start(source)
        #expect(driver.run { driver.states.last == .scanning(adapter: "hci0") })
        // Another client asked for every transport and no RSSI floor: a classic phone and a faint beacon arrive.
        try mock.control.call(path: "/", "org.bluez.Mock", "AddDevice", "('hci0', '11:22:33:44:55:66', 'Phone')")
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -95)
        try mock.advertise("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -90)
        try mock.advertise("C0:FF:EE:00:00:01", uuid: uuidA, major: 1, minor: 1, rssi: -70)
        #expect(driver.run { !driver.sightings.isEmpty })
        driver.settle(0.1)
        #expect(driver.sightings.map(\.rssi) == [-70])
        #expect(source.deviceCount == 2)
        #expect(driver.stop(source))
    }

    @Test func explainsAccessDeniedByPolicy() throws {
        let bus = try makeRestrictedBus()
        let mock = try BlueZMock(address: bus.address, keeping: bus)
        try mock.addAdapter()
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: bus.address))
        try driver.start(source)
        #expect(
            driver.run {
                if case .accessDenied = driver.states.last { return true } else { return false }
            })
        let message = driver.states.last?.description ?? ""
        #expect(message.contains("denied") && message.contains("--source hci"), "\(message)")
        #expect(driver.stop(source))
    }
}
