import FaroApp
import FaroCore
import Testing

/// The trend words a row's sparkline gives screen readers, decided with the rest of the row by
/// `BeaconListBuilder` on the session's thread.
@Suite("Beacon list trend")
struct BeaconListTrendTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
    let spanish = Localizer {
        ["Getting closer": "Acercándose", "Moving away": "Alejándose", "Steady": "Sin cambios"][$0] ?? $0
    }

    func ranged(_ minor: UInt16, history: [Float]) -> RangedBeacon {
        let distance = history.last.map(Double.init)
        return RangedBeacon(
            identity: BeaconIdentity(uuid: uuid, major: 100, minor: minor), measuredPower: -59,
            address: BluetoothAddress(value: UInt64(minor)), rssi: -60, smoothedRSSI: -60, distance: distance,
            proximity: Proximity(distance: distance), firstSeen: 0, lastSeen: 1, history: DistanceHistory(history))
    }

    @Test func theLastTenKnownDistancesDecide() {
        #expect(BeaconListBuilder.trend([6, 5, 4]) == .closer)
        #expect(BeaconListBuilder.trend([2, 3, 4]) == .away)
        #expect(BeaconListBuilder.trend([3, 3.1, 2.9]) == .steady)
        // Fewer than three known values say nothing yet; unknown (NaN) ones are skipped.
        #expect(BeaconListBuilder.trend([6, 2]) == .steady)
        #expect(BeaconListBuilder.trend([]) == .steady)
        #expect(BeaconListBuilder.trend([6, .nan, 2, .nan]) == .steady)
        #expect(BeaconListBuilder.trend([.nan, 6, .nan, 4, 2, .nan]) == .closer)
        // The bounds themselves are steady: under 0.8 of the first is closer, over 1.25 times it is away.
        #expect(BeaconListBuilder.trend([5, 5, 4]) == .steady)
        #expect(BeaconListBuilder.trend([4, 4, 5]) == .steady)
        #expect(BeaconListBuilder.trend([5, 5, 3.9]) == .closer)
        #expect(BeaconListBuilder.trend([4, 4, 5.1]) == .away)
        // Only the last ten count: a far value eleven ticks ago is forgotten.
        let settled: [Float] = [10] + Array(repeating: 2, count: 10)
        #expect(BeaconListBuilder.trend(settled) == .steady)
        #expect(BeaconListBuilder.trend(Array(settled.dropFirst(2))) == .steady)
        #expect(BeaconListBuilder.trend([10] + Array(repeating: 2, count: 9)) == .closer)
    }

    @Test func rowsCarryTheirTrendInTheUsersLanguage() {
        let model = BeaconListBuilder.list(
            snapshot: RangingSnapshot(
                time: 1,
                beacons: [
                    ranged(1, history: [6, 5, 4]), ranged(2, history: [2, 3, 4]), ranged(3, history: [4, 4, 4]),
                ]),
            catalog: CatalogIndex(), state: .scanning, localize: spanish)
        #expect(model.rows.map(\.trendText) == ["Acercándose", "Alejándose", "Sin cambios"])
    }

    @Test func aRowsTrendFollowsItsHistoryFromTickToTick() throws {
        var builder = BeaconListBuilder(localize: .english)
        func tick(_ history: [Float]) -> BeaconListUpdate {
            builder.update(
                snapshot: RangingSnapshot(time: 1, beacons: [ranged(1, history: history)]), catalog: CatalogIndex(),
                state: .scanning)
        }
        let first = tick([4, 4, 4])
        #expect(first.model.rows.first?.trendText == "Steady")
        let second = tick([4, 4, 4, 3, 3])
        #expect(second.model.rows.first?.trendText == "Getting closer")
        #expect(second.revisions.first == second.generation)
        let third = tick([4, 4, 3, 3, 5, 6])
        #expect(third.model.rows.first?.trendText == "Moving away")
    }
}
