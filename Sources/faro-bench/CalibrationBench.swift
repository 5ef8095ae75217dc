import FaroCommandLine
import FaroCore
import FoundationEssentials
import Glibc

/// `faro-bench calibration [--data DIR]`: what calibration at 1 m buys, and how ranging holds up when BlueZ reports
/// a beacon only every 8–10 s (docs/calibration.md). Prints `key=value` lines.
///
/// Calibration, on the recorded data: every beacon is taken to advertise the common wrong default (−59 dBm, the
/// power byte rewritten). Per receiver (dataset) and for each beacon in turn, that beacon's calibration series
/// nearest 1 m is calibrated as `faro calibrate --distance D --apply-to-adapter` does (`CalibrationSampler`: the
/// interquartile mean of the RSSI, brought to 1 m), and by the plain median of the same readings, and the adapter
/// offset each gives is applied to every beacon. The evaluation series are then ranged with that power, beside Faro
/// with each beacon's true 1 m power (the median of its own calibration rows), Faro with the dataset's single power
/// (what `faro-bench distance` uses), Faro with the advertised −59 and AltBeacon's default with −59. The same
/// estimators are then compared where the truth is known (`simulated()`).
///
/// Sparse cadence, on the simulated walkers of `faro-bench distance` (about 10 minutes each) and on the recorded
/// series: the same packets thinned to one per second ("1 Hz") and to one every 8–10 s ("sparse"), both ranged with
/// a tick each second; a region with a 30 s exit period watches the sparse readings for exits.
enum CalibrationBench {
    static let advertised = -59.0

    /// The beacon (node) a series is of: `env1-3D1-A` → `A`.
    static func node(_ series: RecordedSeries) -> String { String(series.name.split(separator: "-").last ?? "") }

    /// One beacon's true 1 m power: the median of its calibration rows brought to 1 m (free space, as the dataset's
    /// power in `faro-bench distance`).
    static func truePower(of node: String, in dataset: RecordedDataset) -> Double? {
        var normalised: [Double] = []
        for series in dataset.series where series.isCalibration && CalibrationBench.node(series) == node {
            normalised += series.samples.map { $0.rssi + 20 * log10(series.distance) }
        }
        return DistanceBenchStatistics.median(normalised)
    }

    static func run(dataDirectory: String) throws {
        let datasets = try RecordedDataLoader.load(directory: dataDirectory)
        var pooled: [String: [Double]] = [:]
        let names = [
            "faro_true_power", "faro_dataset_power", "faro_calibrated", "raw_median_calibrated", "faro_uncalibrated",
            "altbeacon_default",
        ]
        let identity = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 1), major: 1, minor: 1)
        for dataset in datasets {
            guard let datasetPower = dataset.measuredPower else {
                throw CommandFailure(description: "dataset \(dataset.name) has no calibration series")
            }
            let key = dataset.name.replacing("-", with: "_")
            let evaluation = dataset.series.filter { !$0.isCalibration }
            let nodes = Array(Set(dataset.series.map(node))).sorted()
            var truePowers: [String: Double] = [:]
            for n in nodes { truePowers[n] = truePower(of: n, in: dataset) }
            /// Pooled errors of the evaluation series, each ranged with the power `power` gives its beacon.
            func errors(_ power: (String) -> Double, _ tracker: () -> any DistanceTracker) -> [Double] {
                evaluation.flatMap { s in
                    DistanceBench.staticErrors(
                        samples: s.samples, truth: s.distance, measuredPower: power(node(s)), tracker: tracker())
                }
            }
            let faro = { StrategyTracker(strategy: .faroDefault) as any DistanceTracker }
            var results: [String: [Double]] = [
                "faro_true_power": errors({ truePowers[$0] ?? datasetPower }, faro),
                "faro_dataset_power": errors({ _ in datasetPower }, faro),
                "faro_uncalibrated": errors({ _ in advertised }, faro),
                "altbeacon_default": errors({ _ in advertised }, { StrategyTracker(strategy: .altBeacon) }),
            ]
            // One beacon calibrated per receiver, as `faro calibrate --distance D --apply-to-adapter` does, for each
            // choice of beacon in turn (none is picked as the lucky one): its calibration series nearest 1 m.
            var calibrated: [Double] = []
            var rawMedian: [Double] = []
            for n in nodes {
                let candidates = dataset.series.filter { $0.isCalibration && node($0) == n }
                guard let near = candidates.min(by: { abs($0.distance - 1) < abs($1.distance - 1) }) else { continue }
                var sampler = CalibrationSampler(target: identity)
                for s in near.samples {
                    sampler.add(
                        BeaconSighting(
                            beacon: IBeacon(identity: identity, measuredPower: Int8(advertised)),
                            address: BluetoothAddress(value: 1), rssi: Int8(max(-127, min(-1, s.rssi))), time: s.time))
                }
                let result = try sampler.result(distance: near.distance)
                let power = advertised + result.adapterOffset
                let e = errors({ _ in power }, faro)
                calibrated += e
                // The reference: the plain median of the same raw readings, brought to 1 m the same way.
                let raw = near.samples.map { max(-127, min(-1, $0.rssi)) }
                let plain = (DistanceBenchStatistics.median(raw) ?? advertised) + 30 * log10(near.distance)
                let plainPower = (plain * 10).rounded() / 10
                rawMedian += errors({ _ in plainPower }, faro)
                Output.line(
                    "calibration_real_\(key)_beacon_\(n) series=\(near.name) at_m=\(fixed(near.distance, 3)) "
                        + "readings=\(result.readings) measured_dbm=\(fixed(result.measuredPower, 1)) "
                        + "raw_median_dbm=\(fixed(plain, 1)) true_dbm=\(fixed(truePowers[n], 1)) "
                        + "adapter_offset_db=\(fixed(result.adapterOffset, 1)) "
                        + "median_error_m=\(fixed(DistanceBenchStatistics.median(e), 3))")
            }
            results["faro_calibrated"] = calibrated
            results["raw_median_calibrated"] = rawMedian
            for name in names { pooled[name, default: []] += results[name] ?? [] }
            Output.line(
                "calibration_real_\(key)_median_error_m "
                    + names.map { "\($0)=\(fixed(DistanceBenchStatistics.median(results[$0] ?? []), 3))" }
                    .joined(separator: " "))
        }
        let medians = names.map { DistanceBenchStatistics.median(pooled[$0] ?? []) }
        Output.line(
            "calibration_real_median_error_m "
                + zip(names, medians).map { "\($0)=\(fixed($1, 3))" }.joined(separator: " "))
        if let calibrated = medians[2], let truth = medians[0], truth > 0 {
            Output.line("calibration_ratio_calibrated_to_true_power=\(fixed(calibrated / truth, 3))")
        }
        if let raw = medians[3], let truth = medians[0], truth > 0 {
            Output.line("calibration_ratio_raw_median_to_true_power=\(fixed(raw / truth, 3))")
        }
        simulated()
        sparse(datasets)
    }

    /// Calibration where the truth is known: a simulated beacon 1 m away (`faro-bench distance`'s radio model,
    /// true 1 m power −59 dBm, advertising a wrong −65) heard for the dialog's 15 s, at one report a second (BlueZ)
    /// and at every advertisement (5 Hz), 300 times (seeded), calibrated by `CalibrationSampler` and by the plain
    /// median of the raw readings; 6 simulated walkers are then ranged with each calibrated power, beside the true
    /// one. Prints each estimator's mean power error and its median distance error over the true power's, and the same
    /// ratio for the median of the Kalman-filtered values (measured, not taken: docs/calibration.md).
    static func simulated() {
        var noise = SeededNoise(seed: 4242)
        let radio = RadioModel()
        var walkers: [SimulatedRun] = []
        for _ in 0..<6 {
            walkers.append(
                DistanceSimulation.walker(
                    legs: 6, speed: 1, exponent: noise.uniform(2...3), radio: radio, noise: &noise))
        }
        func walkErrors(_ power: Double) -> [Double] {
            walkers.flatMap {
                DistanceBench.track(run: $0, measuredPower: power, tracker: StrategyTracker(strategy: .faroDefault))
                    .errors
            }
        }
        let truth = walkErrors(radio.measuredPower)
        let identity = BeaconIdentity(uuid: BeaconUUID(high: 3, low: 3), major: 1, minor: 1)
        for (label, spacing) in [("1hz", 1.0...1.0), ("5hz", 0.0...0.0)] {
            var faroErrors: [Double] = []
            var rawErrors: [Double] = []
            var faroOff: [Double] = []
            var rawOff: [Double] = []
            var filteredErrors: [Double] = []
            for _ in 0..<300 {
                let still = DistanceSimulation.still(
                    distance: 1, duration: 15, exponent: 2.5, radio: radio, noise: &noise)
                let samples =
                    spacing.upperBound > 0 ? thin(still.samples, spacing: spacing, noise: &noise) : still.samples
                var sampler = CalibrationSampler(target: identity)
                for s in samples {
                    sampler.add(
                        BeaconSighting(
                            beacon: IBeacon(identity: identity, measuredPower: -65),
                            address: BluetoothAddress(value: 3), rssi: Int8(max(-127, min(-1, s.rssi.rounded()))),
                            time: s.time))
                }
                guard let result = try? sampler.result() else { continue }
                let raw = samples.map { max(-127, min(-1, $0.rssi.rounded())) }
                let plain = ((DistanceBenchStatistics.median(raw) ?? 0) * 10).rounded() / 10
                faroOff.append(abs(result.measuredPower - radio.measuredPower))
                rawOff.append(abs(plain - radio.measuredPower))
                faroErrors += walkErrors(result.measuredPower)
                rawErrors += walkErrors(plain)
                // The estimate measured and not taken: the median of the Kalman filter's output after each reading.
                var filter = KalmanRSSIFilter()
                var filtered: [Double] = []
                for (s, r) in zip(samples, raw) {
                    filter.add(rssi: r, at: s.time)
                    if let value = filter.smoothed(at: s.time) { filtered.append(value) }
                }
                filteredErrors += walkErrors(((DistanceBenchStatistics.median(filtered) ?? 0) * 10).rounded() / 10)
            }
            let t = DistanceBenchStatistics.median(truth)
            let f = DistanceBenchStatistics.median(faroErrors)
            let r = DistanceBenchStatistics.median(rawErrors)
            Output.line(
                "calibration_sim_\(label) mean_power_error_db faro=\(fixed(mean(faroOff), 2)) "
                    + "raw_median=\(fixed(mean(rawOff), 2)) walk_median_error_m "
                    + "true_power=\(fixed(t, 3)) faro=\(fixed(f, 3)) raw_median=\(fixed(r, 3))")
            if let t, let f, let r, t > 0 {
                Output.line("calibration_sim_\(label)_ratio_faro=\(fixed(f / t, 3))")
                Output.line("calibration_sim_\(label)_ratio_raw_median=\(fixed(r / t, 3))")
                let m = DistanceBenchStatistics.median(filteredErrors) ?? 0
                Output.line("calibration_sim_\(label)_ratio_filtered_median=\(fixed(m / t, 3))")
            }
        }
    }

    /// One packet per `spacing` seconds (the first of each window), `spacing` drawn from `range` each time.
    static func thin(
        _ samples: [(time: Double, rssi: Double)], spacing range: ClosedRange<Double>, noise: inout SeededNoise
    ) -> [(time: Double, rssi: Double)] {
        var out: [(time: Double, rssi: Double)] = []
        var next = -Double.infinity
        for s in samples where s.time >= next {
            out.append(s)
            next = s.time + noise.uniform(range)
        }
        return out
    }

    static func sparse(_ datasets: [RecordedDataset]) {
        var noise = SeededNoise(seed: 99)
        let radio = RadioModel()
        var dense: [Double] = []
        var thinned: [Double] = []
        var exits = 0
        var walks = 0
        for _ in 0..<30 {
            let exponent = noise.uniform(2...3)
            let walk = DistanceSimulation.walker(legs: 15, speed: 1, exponent: exponent, radio: radio, noise: &noise)
            var run = walk
            run.samples = thin(walk.samples, spacing: 1...1, noise: &noise)
            dense +=
                DistanceBench.track(
                    run: run, measuredPower: radio.measuredPower, tracker: StrategyTracker(strategy: .faroDefault)
                ).errors
            run.samples = thin(walk.samples, spacing: 8...10, noise: &noise)
            thinned +=
                DistanceBench.track(
                    run: run, measuredPower: radio.measuredPower, tracker: StrategyTracker(strategy: .faroDefault)
                ).errors
            exits += spuriousExits(times: run.samples.map(\.time), duration: run.duration)
            walks += 1
        }
        let d = DistanceBenchStatistics.median(dense)
        let s = DistanceBenchStatistics.median(thinned)
        Output.line(
            "sparse_sim_walk_median_error_m hz1=\(fixed(d, 3)) sparse_8_10s=\(fixed(s, 3)) walks=\(walks) "
                + "minutes=\(fixed(Double(walks) * 10, 0))")
        if let d, let s, d > 0 { Output.line("sparse_sim_walk_error_ratio=\(fixed(s / d, 3))") }
        Output.line("sparse_sim_spurious_exits=\(exits)")
        var realDense: [Double] = []
        var realSparse: [Double] = []
        for dataset in datasets {
            guard let power = dataset.measuredPower else { continue }
            for series in dataset.series where !series.isCalibration {
                realDense += DistanceBench.staticErrors(
                    samples: series.samples, truth: series.distance, measuredPower: power,
                    tracker: StrategyTracker(strategy: .faroDefault))
                realSparse += DistanceBench.staticErrors(
                    samples: thin(series.samples, spacing: 8...10, noise: &noise), truth: series.distance,
                    measuredPower: power, tracker: StrategyTracker(strategy: .faroDefault))
            }
        }
        let rd = DistanceBenchStatistics.median(realDense)
        let rs = DistanceBenchStatistics.median(realSparse)
        Output.line("sparse_real_median_error_m hz1=\(fixed(rd, 3)) sparse_8_10s=\(fixed(rs, 3))")
        if let rd, let rs, rd > 0 { Output.line("sparse_real_error_ratio=\(fixed(rs / rd, 3))") }
    }

    /// Exits a 30 s exit period would raise for readings at `times` (the beacon never left: each is spurious).
    static func spuriousExits(times: [Double], duration: Double) -> Int {
        let identity = BeaconIdentity(uuid: BeaconUUID(high: 2, low: 2), major: 1, minor: 1)
        var monitor = RegionMonitor(
            regions: [Region(identifier: "r", uuid: identity.uuid)],
            configuration: RegionMonitorConfiguration(exitPeriod: 30, coolDown: 600))
        var exits = 0
        var next = 0
        var tick = 1.0
        while tick <= duration {
            while next < times.count, times[next] <= tick {
                _ = monitor.observe(identity, at: times[next])
                next += 1
            }
            exits += monitor.tick(at: tick).count
            tick += 1
        }
        return exits
    }

    static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    static func fixed(_ value: Double?, _ decimals: Int) -> String {
        value.map { String(cFormat: "%.\(decimals)f", $0) } ?? "nan"
    }
}
