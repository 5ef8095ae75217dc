import FaroCore
import Foundation
import Testing

/// BlueZ often delivers a beacon's readings only every few seconds (the controller's duplicate filter; see
/// docs/calibration.md). Regions and ranging must stay right at one reading per 8–10 s.
@Suite("sparse cadence")
struct SparseCadenceTests {
    let beacon = IBeacon(uuid: BeaconUUID(high: 9, low: 9), major: 100, minor: 1, measuredPower: -59)
    let address = BluetoothAddress("C0:FF:EE:00:00:01")!

    /// A 10-minute walk from 1 m out to 8 m and back.
    static func trueDistance(at t: Double) -> Double { 1 + 3.5 * (1 - cos(2 * Double.pi * t / 600)) }

    /// Log-distance (n = 3) RSSI with 4 dB of Gaussian shadowing.
    static func rssi(at t: Double, _ rng: inout SplitMix64) -> Int8 {
        let u1 = max(Double(rng.next() % 1_000_000) / 1_000_000, 1e-9)
        let u2 = Double(rng.next() % 1_000_000) / 1_000_000
        let gauss = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        return Int8(max(-127, min(-1, (-59 - 30 * log10(trueDistance(at: t)) + 4 * gauss).rounded())))
    }

    /// Walks 10 minutes, readings at `times`, one tick per second; returns the median distance error, how many
    /// region events of each kind happened, and the ticks the beacon was missing from the ranging list.
    func walk(readingTimes times: [Double], seed: UInt64, strategy: DistanceStrategy<KalmanRSSIFilter> = .faroDefault)
        -> (error: Double, enters: Int, exits: Int, missing: Int)
    {
        var pipeline = BeaconPipeline(
            ranging: RangingEngine(configuration: RangingConfiguration(exitPeriod: 30), strategy: strategy),
            regions: RegionMonitor(
                regions: [Region(identifier: "shop", uuid: beacon.uuid, major: 100)],
                configuration: RegionMonitorConfiguration(exitPeriod: 30, coolDown: 600)))
        var rng = SplitMix64(seed: seed)
        var enters = 0
        var exits = 0
        var missing = 0
        var errors: [Double] = []
        var next = 0
        for tick in 1...600 {
            let t = Double(tick)
            while next < times.count, times[next] <= t {
                pipeline.accept(beacon, address: address, rssi: Self.rssi(at: times[next], &rng), at: times[next]) {
                    if $0.kind == .enter { enters += 1 } else { exits += 1 }
                }
                next += 1
            }
            let snapshot = pipeline.tick(at: t) { if $0.kind == .exit { exits += 1 } }
            guard let ranged = snapshot.beacons.first, let d = ranged.distance else {
                if t > times[0] { missing += 1 }
                continue
            }
            // From the 30th second: the filter's warm-up is the same at both cadences and not what is compared.
            if t >= 30 { errors.append(abs(d - Self.trueDistance(at: t))) }
        }
        return (CalibrationSampler.median(errors) ?? .infinity, enters, exits, missing)
    }

    func sparseTimes(seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        var times: [Double] = []
        var t = 0.5
        while t < 600 {
            times.append(t)
            t += 8 + Double(rng.next() % 2001) / 1000
        }
        return times
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func noSpuriousExitAndDistanceStaysCloseAtOneReadingPerEightToTenSeconds(seed: UInt64) {
        let dense = walk(readingTimes: (0..<600).map { Double($0) + 0.5 }, seed: seed)
        let sparse = walk(readingTimes: sparseTimes(seed: seed), seed: seed + 100)
        #expect(sparse.enters == 1)
        #expect(sparse.exits == 0, "a 30 s exit period flapped at a sparse cadence")
        #expect(sparse.missing == 0, "the beacon left the list \(sparse.missing) times")
        #expect(dense.exits == 0)
        // Distances still follow the walk (1 m to 8 m and back). With independent 4 dB shadowing per reading the
        // sparse error is 1.4–2.9 times the 1 Hz error (nine times fewer readings; docs/calibration.md).
        #expect(sparse.error < 0.8, "median error \(sparse.error) m at one reading per 8–10 s")
        #expect(dense.error < sparse.error)
    }

    @Test func aStillBeaconConvergesAtASparseCadence() {
        var engine = RangingEngine(configuration: RangingConfiguration(exitPeriod: 30), strategy: .faroDefault)
        var rng = SplitMix64(seed: 11)
        var errors: [Double] = []
        for (n, t) in sparseTimes(seed: 11).enumerated() {
            // 3 m: −59 − 30·log10(3) ≈ −73.3 dBm, ±3 dB.
            let noise = Double(rng.next() % 7) - 3
            engine.observe(beacon, address: address, rssi: Int8(-73 + noise), at: t)
            let d = engine.tick(at: t + 0.5).beacons.first?.distance ?? .infinity
            if n >= 10 { errors.append(abs(d - 3)) }
        }
        #expect((CalibrationSampler.median(errors) ?? .infinity) < 0.5, "\(errors)")
    }
}

/// The Kalman filter at a sparse cadence: a reading after a long gap counts for more (docs/calibration.md).
@Suite("Kalman filter at a sparse cadence")
struct SparseKalmanTests {
    /// The filter's estimate after a 15 dB step, fed readings every `spacing` seconds, `count` of them.
    func afterStep(_ filter: KalmanRSSIFilter, spacing: Double, count: Int) -> Double {
        var f = filter
        var t = 0.0
        for _ in 0..<10 {
            f.add(rssi: -60, at: t)
            t += spacing
        }
        for _ in 0..<count {
            f.add(rssi: -75, at: t)
            t += spacing
        }
        return f.smoothed(at: t) ?? 0
    }

    @Test func aStepIsFollowedWithinAFewSparseReadings() {
        let sparse = afterStep(KalmanRSSIFilter(), spacing: 9, count: 3)
        let asIfDense = afterStep(KalmanRSSIFilter(sparseProcessNoise: 1), spacing: 9, count: 3)
        #expect(sparse < -70, "after three readings 9 s apart the estimate is \(sparse)")
        #expect(sparse < asIfDense - 2)
    }

    @Test func aDenseCadenceIsFilteredAsBefore() {
        // One reading a second never counts as sparse: the same estimate with or without the sparse setting.
        #expect(
            afterStep(KalmanRSSIFilter(), spacing: 1, count: 5)
                == afterStep(KalmanRSSIFilter(sparseProcessNoise: 1), spacing: 1, count: 5))
    }
}
