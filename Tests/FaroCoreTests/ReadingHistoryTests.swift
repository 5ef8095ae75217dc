import FaroCore
import Testing

/// The per-beacon readings history and its CSV (docs/beacon-page.md).
@Suite("readings history and CSV")
struct ReadingHistoryTests {
    let a = BluetoothAddress("C0:FF:EE:00:00:01")!
    let b = BluetoothAddress("C0:FF:EE:00:00:02")!

    func reading(_ t: Double, _ address: BluetoothAddress? = nil, rssi: Int8 = -60) -> BeaconReading {
        BeaconReading(time: t, address: address ?? a, rssi: rssi, filtered: Double(rssi) + 0.25, distance: t)
    }

    @Test func keepsTheLastMinutesAndAtMostTheLimit() {
        var history = ReadingHistory(limits: ReadingHistoryLimits(seconds: 10, maximumReadings: 5))
        for t in 0..<4 { history.append(reading(Double(t))) }
        #expect(history.readings.map(\.time) == [0, 1, 2, 3])
        for t in 4..<9 { history.append(reading(Double(t))) }
        // At most five, the latest.
        #expect(history.readings.map(\.time) == [4, 5, 6, 7, 8])
        history.append(reading(16))
        // Older than 10 s before the newest are gone.
        #expect(history.readings.map(\.time) == [6, 7, 8, 16])
        history.append(reading(40))
        #expect(history.readings.map(\.time) == [40])
        #expect(history.count == 1)
        for t in 41..<50 { history.append(reading(Double(t))) }
        #expect(history.readings.map(\.time) == [45, 46, 47, 48, 49])
    }

    @Test func keepsEveryValueAndAddress() {
        var history = ReadingHistory(limits: ReadingHistoryLimits())
        history.append(reading(1, a, rssi: -61))
        history.append(reading(2, b, rssi: -62))
        history.append(BeaconReading(time: 3, address: a, rssi: -63, filtered: -62.5, distance: nil))
        let r = history.readings
        #expect(r.map(\.address) == [a, b, a])
        #expect(r.map(\.rssi) == [-61, -62, -63])
        #expect(r[0].filtered == -60.75)
        #expect(r[2].distance == nil && r[2].proximity == .unknown)
        #expect(history.addressesSeen == [a, b])
        #expect(history.readings(since: 2).count == 2)
    }

    @Test func csvIsRFC4180WithDotDecimalsAndUTCMilliseconds() {
        #expect(ReadingCSV.header() == "time_utc,address,rssi,rssi_filtered,distance_m,proximity\r\n")
        let row = ReadingCSV.row(
            BeaconReading(time: 0.0125, address: a, rssi: -67, filtered: -66.456, distance: 2.5),
            epoch: 1_764_806_400)
        #expect(row == "2025-12-04T00:00:00.012Z,C0:FF:EE:00:00:01,-67,-66.46,2.500,near\r\n")
        #expect(
            ReadingCSV.line(["a,b", "say \"hi\"", "x\ny", "plain"]) == "\"a,b\",\"say \"\"hi\"\"\",\"x\ny\",plain\r\n")
        #expect(ReadingCSV.decimal(-0.004, 2) == "0.00")
        #expect(ReadingCSV.decimal(-1.005, 1) == "-1.0")
        #expect(ReadingCSV.decimal(12, 3) == "12.000")
        #expect(ReadingCSV.decimal(.nan, 2) == "")
        let unknown = ReadingCSV.row(BeaconReading(time: 1, address: a, rssi: -90, filtered: -90, distance: nil))
        #expect(unknown.hasSuffix(",-90,-90.00,,unknown\r\n"))
    }

    @Test func rangingKeepsReadingsOnlyWhenAsked() {
        let beacon = IBeacon(uuid: BeaconUUID(high: 1, low: 1), major: 1, minor: 1, measuredPower: -59)
        var without = RangingEngine(strategy: .faroDefault)
        without.observe(beacon, address: a, rssi: -60, at: 0)
        #expect(without.readings(of: beacon.identity) == nil)
        var with = RangingEngine(
            configuration: RangingConfiguration(readings: ReadingHistoryLimits(seconds: 600)), strategy: .faroDefault)
        for t in 0..<5 { with.observe(beacon, address: a, rssi: -60 - Int8(t), at: Double(t)) }
        with.observe(beacon, address: a, rssi: 127, at: 5)
        let kept = with.readings(of: beacon.identity)?.readings ?? []
        #expect(kept.map(\.rssi) == [-60, -61, -62, -63, -64])
        // What the tick shows is what the last reading's row says.
        let snapshot = with.tick(at: 6)
        #expect(kept.last?.filtered == snapshot.beacons.first?.smoothedRSSI.map { Double(Float($0)) })
    }
}
