import FaroApp
import FaroCore
import Foundation
import Testing

/// A stage that records what reached it, for the runner's tests.
final class RecordingStage: BeaconSessionStage, @unchecked Sendable {
    func process(_ updates: [BeaconSessionUpdate], inputs: Int, refresh: Bool) -> [BeaconSessionUpdate] { updates }
    func reset() {}
}

/// What the runner delivered, with a bounded wait for more.
final class Deliveries: @unchecked Sendable {
    private let condition = ConditionLock()
    private var batches: [[BeaconSessionUpdate]] = []

    func take(_ batch: [BeaconSessionUpdate]) {
        condition.withLock { batches.append(batch) }
        condition.broadcast()
    }

    /// Waits (at most 10 s, an event wait, not a timing check) until `condition` holds for what arrived.
    func wait(until check: ([[BeaconSessionUpdate]]) -> Bool) -> [[BeaconSessionUpdate]] {
        let deadline = Date(timeIntervalSinceNow: 10)
        condition.lock()
        defer { condition.unlock() }
        while !check(batches), condition.wait(until: deadline) {}
        return batches
    }
}

@Suite("Beacon session runner")
struct BeaconSessionRunnerTests {
    let uuid = BeaconUUID(high: 3, low: 4)

    func sighting(_ minor: UInt16, at time: Double, rssi: Int8 = -60) -> BeaconSighting {
        BeaconSighting(
            beacon: IBeacon(uuid: uuid, major: 1, minor: minor, measuredPower: -59),
            address: BluetoothAddress(value: UInt64(minor)), rssi: rssi, time: time)
    }

    func makeRunner(_ deliveries: Deliveries, machine: @escaping @Sendable () -> Double = { 0 })
        -> BeaconSessionRunner<RecordingStage>
    {
        BeaconSessionRunner(
            session: BeaconSession(), stage: RecordingStage(), inputs: 0, machineClock: machine, autoTick: false,
            hop: { $0() }, deliver: { deliveries.take($0) })
    }

    static func ranged(_ batches: [[BeaconSessionUpdate]]) -> [RangedBeacons] {
        batches.joined().compactMap { if case .ranged(let r) = $0 { r } else { nil } }
    }

    @Test func aTickRangesWhatWasHeardOnTheSourcesClock() throws {
        let deliveries = Deliveries()
        let runner = makeRunner(deliveries)
        defer { runner.stop() }
        for minor in 1...50 { runner.observe(sighting(UInt16(minor), at: 100.5)) }
        runner.tickNow()
        let batches = deliveries.wait { !BeaconSessionRunnerTests.ranged($0).isEmpty }
        let tick = try #require(BeaconSessionRunnerTests.ranged(batches).first)
        #expect(tick.snapshot.beacons.count == 50)
        // The source's clock (100.5), not the machine's (0).
        #expect(tick.snapshot.time == 100.5)
    }

    @Test func everySightingOfEveryBatchIsRanged() throws {
        // Batches of several sizes, some past the buffer the runner keeps between batches, ranged exactly as a
        // session fed the same sightings directly ranges them: a sighting lost or ranged twice (a buffer handed
        // back without being emptied) would change some beacon's smoothed RSSI.
        let deliveries = Deliveries()
        let runner = makeRunner(deliveries)
        defer { runner.stop() }
        var reference = BeaconSession()
        for (round, size) in [10, 3000, 5000, 200, 6000, 1].enumerated() {
            let time = Double(round + 1)
            for minor in 0..<size {
                let heard = sighting(UInt16(minor), at: time, rssi: Int8(-40 - (minor * 7 + round * 13) % 50))
                runner.observe(heard)
                reference.observe(heard) { _ in }
            }
            runner.tickNow()
            let expected = reference.tick(at: time) { _ in }
            let batches = deliveries.wait { BeaconSessionRunnerTests.ranged($0).count > round }
            let tick = BeaconSessionRunnerTests.ranged(batches)[round]
            #expect(tick.snapshot.time == time)
            #expect(tick.snapshot.beacons.count == expected.beacons.count)
            #expect(tick.snapshot == expected)
        }
    }

    @Test func placesBecomeRegionsAndNameTheTick() throws {
        let deliveries = Deliveries()
        let runner = makeRunner(deliveries)
        defer { runner.stop() }
        let identity = BeaconIdentity(uuid: uuid, major: 1, minor: 9)
        let place = CatalogPlace(identity: identity, cliente: "Cine", titulo: "Cartelera", url: "https://e.com/c")
        runner.setCatalog(CatalogIndex([place]))
        runner.observe(sighting(9, at: 1))
        runner.tickNow()
        let batches = deliveries.wait { batches in
            batches.joined().contains { if case .region = $0 { true } else { false } }
                && BeaconSessionRunnerTests.ranged(batches).contains { !$0.snapshot.beacons.isEmpty }
        }
        let entry = batches.joined().compactMap { if case .region(let e) = $0 { e } else { nil } }.first
        #expect(entry?.kind == .enter)
        #expect(entry?.beacon == identity)
        #expect(BeaconSessionRunnerTests.ranged(batches).last?.catalog.place(for: identity) == place)
    }

    @Test func resetForgetsEverythingQueuedBeforeIt() throws {
        let deliveries = Deliveries()
        let runner = makeRunner(deliveries)
        defer { runner.stop() }
        runner.observe(sighting(1, at: 1))
        runner.tickNow()
        _ = deliveries.wait { BeaconSessionRunnerTests.ranged($0).contains { $0.snapshot.beacons.count == 1 } }
        runner.reset()
        runner.tickNow()
        let after = deliveries.wait { batches in
            BeaconSessionRunnerTests.ranged(batches).last.map { $0.snapshot.beacons.isEmpty } ?? false
        }
        #expect(BeaconSessionRunnerTests.ranged(after).last?.snapshot.beacons.isEmpty == true)
    }
}
