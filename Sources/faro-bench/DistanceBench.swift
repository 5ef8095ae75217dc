import Dispatch
import FaroCommandLine
import FaroCore
import FoundationEssentials
import Glibc

/// `faro-bench distance [--data DIR]`: how far off and how quick each distance strategy is, on recorded RSSI at
/// known distances and on simulated walkers. Prints one `key altbeacon=… altbeacon_arma=… faro=…` line per metric.
///
/// Real data: every evaluation series is replayed through a fresh filter, with a ranging tick each second; ticks
/// after the first 20 s (AltBeacon's window) are scored. The measured power of a dataset comes from its
/// calibration series only. Simulation: log-distance path loss with an exponent drawn per run from 2–3, log-normal
/// shadowing, deep fades and lost packets (see `RadioModel`), for walkers going between 1 m and 6 m at 1 m/s and
/// for still targets; seeded, so every run prints the same numbers.
enum DistanceBench {
    /// Seconds of warm-up before a static estimate is scored.
    static let warmUp = 20.0

    /// One strategy under test, type-erased so the benchmark can hold a list.
    struct Candidate {
        var name: String
        var makeTracker: () -> any DistanceTracker
    }

    static var candidates: [Candidate] {
        [
            Candidate(name: "altbeacon") { StrategyTracker(strategy: .altBeacon) },
            Candidate(name: "altbeacon_arma") {
                StrategyTracker(
                    strategy: DistanceStrategy(makeFilter: { ArmaRSSIFilter() }, model: CurveFittedPathLoss()))
            },
            Candidate(name: "faro") { StrategyTracker(strategy: .faroDefault) },
        ]
    }

    static func run(dataDirectory: String) throws {
        let datasets = try RecordedDataLoader.load(directory: dataDirectory)
        let names = candidates.map(\.name)
        func line(_ key: String, _ values: [Double?], decimals: Int = 3) {
            let parts = zip(names, values).map { name, value in
                "\(name)=" + (value.map { String(cFormat: "%.\(decimals)f", $0) } ?? "nan")
            }
            Output.line(([key] + parts).joined(separator: " "))
        }

        // Recorded data.
        var pooled = [[Double]](repeating: [], count: names.count)
        for dataset in datasets {
            guard let power = dataset.measuredPower else {
                throw CommandFailure(description: "dataset \(dataset.name) has no calibration series")
            }
            let series = dataset.series.filter { !$0.isCalibration }
            var errors = [[Double]](repeating: [], count: names.count)
            for (c, candidate) in candidates.enumerated() {
                for s in series {
                    errors[c] += staticErrors(
                        samples: s.samples, truth: s.distance, measuredPower: power,
                        tracker: candidate.makeTracker())
                }
                pooled[c] += errors[c]
            }
            let key = dataset.name.replacing("-", with: "_")
            Output.line(
                "distance_real_\(key)_measured_power_dbm=\(String(cFormat: "%.1f", power)) series=\(series.count) scored_ticks=\(errors.first?.count ?? 0)"
            )
            line("distance_real_\(key)_median_error_m", errors.map { DistanceBenchStatistics.median($0) })
        }
        line("distance_real_median_error_m", pooled.map { DistanceBenchStatistics.median($0) })
        line("distance_real_p90_error_m", pooled.map { DistanceBenchStatistics.quantile($0, 0.9) })

        // Simulation.
        let radio = RadioModel()
        var noise = SeededNoise(seed: 2024)
        var walkers: [(run: SimulatedRun, exponent: Double)] = []
        for _ in 0..<60 {
            let exponent = noise.uniform(2...3)
            walkers.append(
                (
                    DistanceSimulation.walker(legs: 6, speed: 1, exponent: exponent, radio: radio, noise: &noise),
                    exponent
                ))
        }
        var stills: [SimulatedRun] = []
        for distance in [0.5, 1, 2, 3, 4, 5, 6, 8] {
            for _ in 0..<8 {
                let exponent = noise.uniform(2...3)
                stills.append(
                    DistanceSimulation.still(
                        distance: distance, duration: 90, exponent: exponent, radio: radio, noise: &noise))
            }
        }
        var stillErrors: [Double?] = []
        var walkErrors: [Double?] = []
        var t90s: [Double?] = []
        var t90Worst: [Double?] = []
        for candidate in candidates {
            var e: [Double] = []
            for run in stills {
                e += staticErrors(
                    samples: run.samples, truth: run.truth(0), measuredPower: radio.measuredPower,
                    tracker: candidate.makeTracker())
            }
            stillErrors.append(DistanceBenchStatistics.median(e))
            var w: [Double] = []
            var t: [Double] = []
            for walker in walkers {
                let result = track(
                    run: walker.run, measuredPower: radio.measuredPower, tracker: candidate.makeTracker())
                w += result.errors
                t += result.t90
            }
            walkErrors.append(DistanceBenchStatistics.median(w))
            t90s.append(DistanceBenchStatistics.median(t))
            t90Worst.append(DistanceBenchStatistics.quantile(t, 0.9))
        }
        line("distance_sim_static_median_error_m", stillErrors)
        line("distance_sim_walk_median_error_m", walkErrors)
        line("distance_sim_step_t90_median_s", t90s, decimals: 1)
        line("distance_sim_step_t90_p90_s", t90Worst, decimals: 1)
    }

    /// Replays a static series with a tick each second; returns |estimate − truth| for the ticks after warm-up.
    static func staticErrors(
        samples: [(time: Double, rssi: Double)], truth: Double, measuredPower: Double,
        tracker: any DistanceTracker
    ) -> [Double] {
        var tracker = tracker
        guard let first = samples.first?.time, let last = samples.last?.time else { return [] }
        var errors: [Double] = []
        var next = 0
        var tick = first.rounded(.down) + 1
        while tick <= last + 1 {
            while next < samples.count, samples[next].time <= tick {
                tracker.add(rssi: samples[next].rssi, at: samples[next].time)
                next += 1
            }
            if tick - first >= warmUp, let d = tracker.distance(at: tick, measuredPower: measuredPower) {
                errors.append(abs(d - truth))
            }
            tick += 1
        }
        return errors
    }

    /// Replays a walker with a tick each second. Errors are scored after the first 20 s. For each leg, t90 is the
    /// time from the start of the movement until the estimate first covers 90 % of its own change: from its median
    /// over the 10 s before the leg to its median over the last 10 s before the next leg (so a model that is off
    /// in scale is not counted as slow). A leg whose estimate never gets there counts the whole dwell.
    static func track(run: SimulatedRun, measuredPower: Double, tracker: any DistanceTracker)
        -> (errors: [Double], t90: [Double])
    {
        var tracker = tracker
        var errors: [Double] = []
        var estimates: [(time: Double, distance: Double)] = []
        var next = 0
        var tick = 1.0
        while tick <= run.duration {
            while next < run.samples.count, run.samples[next].time <= tick {
                tracker.add(rssi: run.samples[next].rssi, at: run.samples[next].time)
                next += 1
            }
            if let d = tracker.distance(at: tick, measuredPower: measuredPower) {
                estimates.append((tick, d))
                if tick >= warmUp { errors.append(abs(d - run.truth(tick))) }
            }
            tick += 1
        }
        func settled(_ range: Range<Double>) -> Double? {
            DistanceBenchStatistics.median(estimates.filter { range.contains($0.time) }.map(\.distance))
        }
        var t90: [Double] = []
        for (i, leg) in run.legs.enumerated() {
            let end = i + 1 < run.legs.count ? run.legs[i + 1].start : run.duration
            guard let before = settled((leg.start - 10)..<leg.start), let after = settled((end - 10)..<end),
                after != before
            else { continue }
            let threshold = before + 0.9 * (after - before)
            let rising = after > before
            let reached = estimates.first { e in
                e.time >= leg.start && e.time < end && (rising ? e.distance >= threshold : e.distance <= threshold)
            }
            t90.append((reached?.time ?? end) - leg.start)
        }
        return (errors, t90)
    }
}

/// A filter and a path-loss model fed one beacon's samples, as the ranging engine runs them.
protocol DistanceTracker {
    mutating func add(rssi: Double, at time: Double)
    mutating func distance(at time: Double, measuredPower: Double) -> Double?
}

/// A `DistanceStrategy` as a tracker: one filter and the strategy's model.
struct StrategyTracker<Filter: RSSIFilter>: DistanceTracker {
    var filter: Filter
    let model: any PathLossModel

    init(strategy: DistanceStrategy<Filter>) {
        filter = strategy.makeFilter()
        model = strategy.model
    }

    mutating func add(rssi: Double, at time: Double) { filter.add(rssi: rssi, at: time) }

    mutating func distance(at time: Double, measuredPower: Double) -> Double? {
        filter.smoothed(at: time).flatMap { model.distance(rssi: $0, measuredPower: measuredPower) }
    }
}
