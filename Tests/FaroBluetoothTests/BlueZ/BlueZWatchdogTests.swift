import FaroBluetooth
import FaroCore
import FaroTestSupport
import Foundation
import Testing

private let uuid = "f7826da6-4fa2-4e98-8024-bc5b71e0893e"
private let address = "C0:FF:EE:00:00:01"

/// The quiet-scanner watchdog against python-dbusmock playing bluetoothd: the mock keeps `Discovering` true and
/// delivers nothing, as a stalled controller does (docs/monitoring.md). Short silences so the test stays short.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct BlueZWatchdogTests {
    static func quick(restartsBeforePowerCycle: Int = 3) -> ScanWatchdogConfiguration {
        ScanWatchdogConfiguration(
            minimumSilence: 0.6, trafficWindow: 10, minimumReadings: 3, gapFactor: 1,
            restartsBeforePowerCycle: restartsBeforePowerCycle, maximumWait: 5)
    }

    /// Advertises the beacon `times` times and waits until the source has delivered them.
    func traffic(_ mock: BlueZMock, _ driver: SourceDriver, times: Int = 5) throws {
        let target = driver.sightings.count + times
        for _ in 0..<times { try mock.advertise(address, uuid: uuid, major: 1, minor: 1, rssi: -60) }
        #expect(driver.run { driver.sightings.count >= target })
    }

    @Test func aScannerThatGoesQuietIsRestartedWithBackoffAndHearsAgain() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon(address, uuid: uuid, major: 1, minor: 1, rssi: -60)
        let driver = SourceDriver()
        let source = BlueZSource(options: .init(busAddress: mock.address, watchdog: Self.quick()))
        try driver.start(source)
        #expect(driver.run { driver.states.contains(.scanning(adapter: "hci0")) })
        try traffic(mock, driver)
        #expect(try mock.callCount("StartDiscovery") == 1)

        // Silence while Discovering stays true: discovery is stopped and started again.
        #expect(driver.run { (try? mock.callCount("StopDiscovery")) ?? 0 >= 1 })
        #expect(driver.run { (try? mock.callCount("StartDiscovery")) ?? 0 >= 2 })
        #expect(driver.run { driver.states.last == .quiet(adapter: "hci0", minutes: 0) })
        // It backs off: the second restart comes 1.2 s after the first, the third 2.4 s after the second, so a
        // second after the second there is no third.
        #expect(driver.run { (try? mock.callCount("StopDiscovery")) ?? 0 >= 2 })
        driver.settle(1)
        let stops = try mock.callCount("StopDiscovery")
        let log = try mock.calls("StopDiscovery")
        #expect(stops == 2, "\(log)")
        #expect(source.statistics.discoveryRestarts == stops)
        #expect(source.statistics.powerCycles == 0)
        #expect(try mock.isPowered())

        // The scanner hears again: the state says so and the beacon is delivered.
        let before = driver.sightings.count
        try mock.advertise(address, uuid: uuid, major: 1, minor: 1, rssi: -61)
        #expect(driver.run { driver.sightings.count > before })
        #expect(driver.run { driver.states.last == .resumed(adapter: "hci0") })
        #expect(driver.failures.isEmpty)
        #expect(driver.stop(source))
    }

    @Test func theAdapterIsPowerCycledOnlyWhenFaroMayPowerIt() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon(address, uuid: uuid, major: 1, minor: 1, rssi: -60)

        let polite = SourceDriver()
        let refused = BlueZSource(
            options: .init(busAddress: mock.address, watchdog: Self.quick(restartsBeforePowerCycle: 1)))
        try polite.start(refused)
        #expect(polite.run { polite.states.contains(.scanning(adapter: "hci0")) })
        try traffic(mock, polite)
        #expect(polite.run { refused.statistics.discoveryRestarts >= 3 })
        #expect(refused.statistics.powerCycles == 0)
        #expect(!polite.states.contains(.poweredOff(adapter: "hci0")))
        #expect(polite.stop(refused))

        let eager = SourceDriver()
        let allowed = BlueZSource(
            options: .init(
                powerOn: true, busAddress: mock.address, watchdog: Self.quick(restartsBeforePowerCycle: 1)))
        try eager.start(allowed)
        #expect(eager.run { eager.states.contains(.scanning(adapter: "hci0")) })
        try traffic(mock, eager)
        // A restart first, then the power cycle: off, and on again by Faro, and discovering.
        #expect(eager.run { allowed.statistics.powerCycles >= 1 })
        #expect(allowed.statistics.discoveryRestarts >= 1)
        #expect(eager.run { eager.states.contains(.poweredOff(adapter: "hci0")) })
        #expect(eager.run { (try? mock.isPowered()) == true })
        let before = eager.sightings.count
        try mock.advertise(address, uuid: uuid, major: 1, minor: 1, rssi: -62)
        #expect(eager.run { eager.sightings.count > before })
        #expect(eager.stop(allowed))
    }
}
