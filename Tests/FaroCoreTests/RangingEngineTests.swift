import Testing

@testable import FaroCore

@Suite("Ranging")
struct RangingEngineTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    func beacon(_ minor: UInt16, power: Int8 = -59) -> IBeacon {
        IBeacon(uuid: uuid, major: 100, minor: minor, measuredPower: power)
    }

    func address(_ n: UInt64) -> BluetoothAddress { BluetoothAddress(value: 0xC0FFEE00_0000 + n) }

    /// A strategy without smoothing, so expected distances are exact.
    var exact: DistanceStrategy<ArmaRSSIFilter> {
        DistanceStrategy(makeFilter: { ArmaRSSIFilter(speed: 1) }, model: LogDistancePathLoss(exponent: 2))
    }

    @Test func nearestFirstWithDistanceAndProximity() {
        var engine = RangingEngine(strategy: exact)
        engine.observe(beacon(1), address: address(1), rssi: -79, at: 0.1)  // 10 m
        engine.observe(beacon(2), address: address(2), rssi: -53, at: 0.2)  // 0.5 m
        engine.observe(beacon(3), address: address(3), rssi: -65, at: 0.3)  // 2 m
        let snap = engine.tick(at: 1)
        #expect(snap.beacons.map(\.identity.minor) == [2, 3, 1])
        #expect(abs((snap.beacons[0].distance ?? 0) - 0.501) < 0.01)
        #expect(snap.beacons.map(\.proximity) == [.near, .near, .far])
        #expect(abs((snap.beacons[2].distance ?? 0) - 10) < 0.01)
        #expect(snap.beacons[2].address == address(1))
        #expect(snap.beacons[2].rssi == -79)
    }

    @Test func unknownDistancesGoLast() {
        var engine = RangingEngine(strategy: exact)
        engine.observe(beacon(1, power: 12), address: address(1), rssi: -40, at: 0)  // positive power: unknown
        engine.observe(beacon(2), address: address(2), rssi: -70, at: 0)
        let snap = engine.tick(at: 1)
        #expect(snap.beacons.map(\.identity.minor) == [2, 1])
        #expect(snap.beacons[1].distance == nil)
        #expect(snap.beacons[1].proximity == .unknown)
    }

    @Test func dropsBeaconsAfterTheExitPeriod() {
        var engine = RangingEngine(configuration: RangingConfiguration(exitPeriod: 30), strategy: exact)
        engine.observe(beacon(1), address: address(1), rssi: -60, at: 0)
        engine.observe(beacon(2), address: address(2), rssi: -60, at: 10)
        #expect(engine.tick(at: 30).beacons.count == 2)
        #expect(engine.tick(at: 30.5).beacons.map(\.identity.minor) == [2])
        #expect(engine.tick(at: 40.5).beacons.isEmpty)
        #expect(engine.count == 0)
    }

    @Test func firstAndLastSeenAndAddressChanges() {
        var engine = RangingEngine(strategy: exact)
        engine.observe(beacon(1), address: address(1), rssi: -60, at: 2)
        engine.observe(beacon(1), address: address(9), rssi: -61, at: 5)
        let b = engine.tick(at: 6).beacons[0]
        #expect(b.firstSeen == 2)
        #expect(b.lastSeen == 5)
        #expect(b.address == address(9))
        #expect(b.rssi == -61)
    }

    @Test func unusableRSSIKeepsPresenceButIsNotAveraged() {
        var engine = RangingEngine(strategy: exact)
        engine.observe(beacon(1), address: address(1), rssi: -65, at: 0)
        engine.observe(beacon(1), address: address(1), rssi: 127, at: 20)
        let b = engine.tick(at: 40).beacons
        #expect(b.count == 1)  // still present thanks to the 127 sighting at t=20
        #expect(abs((b[0].distance ?? 0) - 2.0) < 0.01)
    }

    @Test func historyKeepsTheLastTicksOldestFirst() {
        var engine = RangingEngine(configuration: RangingConfiguration(historyLength: 3), strategy: exact)
        for (i, rssi) in [-59, -65, -69, -79].enumerated() {
            engine.observe(beacon(1), address: address(1), rssi: Int8(rssi), at: Double(i))
            _ = engine.tick(at: Double(i) + 0.5)
        }
        let history = engine.tick(at: 4).beacons[0].history
        #expect(history.count == 3)
        #expect(abs(Double(history[0]) - 3.16) < 0.05)
        #expect(abs(Double(history[2]) - 10) < 0.05)
    }

    @Test func historyValuesAreTheRingOldestFirst() {
        for capacity in [0, 1, 3, 5] {
            var history = DistanceHistory(capacity: capacity)
            #expect(history.values == [])
            for i in 0..<12 {
                history.append(Float(i))
                #expect(history.values == Array(history))
                #expect(history.values.count == min(i + 1, capacity))
                if capacity > 0 { #expect(history.values.last == Float(i)) }
            }
        }
        #expect(DistanceHistory([1, 2, 3, 4, 5], capacity: 3).values == [3, 4, 5])
    }

    @Test func aSnapshotKeepsItsHistoryWhileTheEngineTicksOn() {
        var engine = RangingEngine(configuration: RangingConfiguration(historyLength: 3), strategy: exact)
        engine.observe(beacon(1), address: address(1), rssi: -59, at: 0)
        engine.observe(beacon(2), address: address(2), rssi: -79, at: 0)
        let first = engine.tick(at: 0.5)
        engine.observe(beacon(1), address: address(1), rssi: -85, at: 1)  // 20 m
        let second = engine.tick(at: 1.5)
        #expect(first.beacons.map { Array($0.history).count } == [1, 1])
        #expect(second.beacons.map(\.identity.minor) == [2, 1])
        #expect(abs(Double(first.beacons[0].history[0]) - 1) < 0.01)
        #expect(second.beacons[1].history.count == 2)
        #expect(abs(Double(second.beacons[1].history[1]) - 19.95) < 0.05)
    }

    @Test func equalDistancesAreOrderedByIdentity() {
        var engine = RangingEngine(strategy: exact)
        for minor: UInt16 in [5, 3, 9, 1] { engine.observe(beacon(minor), address: address(1), rssi: -65, at: 0) }
        engine.observe(beacon(7), address: address(1), rssi: 127, at: 0)  // no distance: last
        engine.observe(beacon(2), address: address(1), rssi: 127, at: 0)
        #expect(engine.tick(at: 1).beacons.map(\.identity.minor) == [1, 3, 5, 9, 2, 7])
    }

    @Test func pipelineSkipsOtherDevicesAndFiltersWeakSignals() throws {
        var pipeline = BeaconPipeline(
            filter: SightingFilter(minimumRSSI: -90),
            ranging: RangingEngine(strategy: exact), regions: RegionMonitor(regions: []))
        let frame = DeviceFrames.bytes(DeviceFrames.canonical)
        let eddystone = DeviceFrames.bytes(DeviceFrames.eddystoneURL)
        let rejected = eddystone.withUnsafeBytes {
            pipeline.ingest(advertisingData: $0, address: address(1), rssi: -60, at: 0) { _ in }
        }
        #expect(rejected == .noManufacturerData)
        _ = frame.withUnsafeBytes {
            pipeline.ingest(advertisingData: $0, address: address(2), rssi: -95, at: 0) { _ in }
        }
        #expect(pipeline.ranging.count == 0)
        let none = frame.withUnsafeBytes {
            pipeline.ingest(advertisingData: $0, address: address(2), rssi: -70, at: 0) { _ in }
        }
        #expect(none == nil)
        #expect(pipeline.ranging.count == 1)
    }

    @Test func distanceFollowsAStepWithTheDefaultStrategy() {
        // The default filter settles near the new value within a few seconds of a step at 5 Hz.
        var engine = RangingEngine(strategy: .faroDefault)
        var t = 0.0
        for _ in 0..<50 {
            engine.observe(beacon(1), address: address(1), rssi: -59, at: t)
            t += 0.2
        }
        let near = engine.tick(at: t).beacons[0].distance ?? 0
        for _ in 0..<50 {
            engine.observe(beacon(1), address: address(1), rssi: -79, at: t)
            t += 0.2
        }
        let far = engine.tick(at: t).beacons[0].distance ?? 0
        #expect(near < 1.5)
        #expect(far > 4 * near)
    }
}
