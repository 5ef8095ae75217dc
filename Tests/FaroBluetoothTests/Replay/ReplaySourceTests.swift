import FaroBluetooth
import FaroCore
import Testing

/// Replays and the demo behind the same interface as the radios.
struct ReplaySourceTests {
    static func record(_ t: Double, minor: UInt8, rssi: Int8 = -60) -> ReplayRecord {
        let data: [UInt8] =
            [0x4C, 0x00, 0x02, 0x15] + Array(repeating: 0x11, count: 16) + [0x00, 0x01, 0x00, minor, 0xC5]
        return ReplayRecord(
            time: t, address: BluetoothAddress(value: UInt64(minor)), rssi: rssi, kind: .msd, data: data)
    }

    static let records = [
        record(10, minor: 1), record(10.5, minor: 2),
        ReplayRecord(
            time: 10.7, address: BluetoothAddress(value: 9), rssi: -50, kind: .ad, data: [0x02, 0x01, 0x06]),
        record(11, minor: 3),
    ]

    @Test func releasesExactlyWhatIsDue() {
        let source = ReplaySource(records: Self.records)
        var seen: [BeaconSighting] = []
        source.release(until: 10.5) { seen.append($0) }
        #expect(seen.map(\.beacon.minor) == [1, 2])
        source.release(until: 12) { seen.append($0) }
        #expect(seen.map(\.beacon.minor) == [1, 2, 3], "the advertisement without an iBeacon is skipped")
        #expect(seen.map(\.time) == [10, 10.5, 11] && seen.allSatisfy { $0.rssi == -60 })
        #expect(source.isFinished)
        source.loop(after: 12)
        seen.removeAll()
        source.release(until: 13.5) { seen.append($0) }
        #expect(seen.map(\.time) == [13, 13.5], "the next pass starts a second later")
    }

    @Test func playsOnAGLibTimerAndSaysWhenItIsDone() {
        let driver = SourceDriver()
        let source = ReplaySource(records: Self.records, speed: 20)
        #expect(throws: Never.self) { try driver.start(source) }
        #expect(driver.run(timeout: 5) { driver.states == [.finished] })
        #expect(driver.sightings.map(\.beacon.minor) == [1, 2, 3])
        #expect(driver.stop(source))
    }

    @Test func aLoopingDemoKeepsGoingUntilStopped() {
        let driver = SourceDriver()
        let source = ReplaySource(records: Self.records, name: "demo", loops: true, speed: 50)
        #expect(throws: Never.self) { try driver.start(source) }
        #expect(driver.run(timeout: 5) { driver.sightings.count >= 7 })
        #expect(driver.states.isEmpty, "a loop never finishes")
        #expect(driver.stop(source))
        let count = driver.sightings.count
        driver.settle(0.2)
        #expect(driver.sightings.count == count, "nothing after stop")
    }
}
