import Dispatch
import FaroCommandLine
import FaroCore
import FoundationEssentials
import Glibc

/// Uniform and Gaussian draws from the benchmark's seeded SplitMix64, so every run sees the same signal.
struct SeededNoise {
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(generator.next() >> 11) * 0x1p-53 }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-300)
        let v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}

/// The simulated radio: log-distance path loss with an exponent drawn per run, log-normal shadowing (a slowly
/// varying part plus independent per-packet scatter), occasional deep fades, and lost packets.
struct RadioModel {
    /// RSSI at 1 m, dBm (also what the beacon advertises as measured power: calibration is exact here).
    var measuredPower = -59.0
    /// Per-packet scatter, dB.
    var sigma = 4.0
    /// The slowly varying shadowing (people, body), dB, and its correlation time, s.
    var slowSigma = 2.0
    var slowTime = 4.0
    /// Chance that a packet comes through a deep fade, and how deep, dB.
    var fadeProbability = 0.05
    var fadeDepth: ClosedRange<Double> = 10...25
    /// Packets advertised per second and the share a scanner misses.
    var advertsPerSecond = 5.0
    var lossProbability = 0.2
}

/// One simulated run: the true distance as a function of time, and the packets a scanner would have received.
struct SimulatedRun {
    var duration: Double
    var truth: (Double) -> Double
    var samples: [(time: Double, rssi: Double)]
    /// Start times of the movements (legs) in this run, with the distance before and after.
    var legs: [(start: Double, from: Double, to: Double)]
}

/// Builds the simulated runs: walkers going between 1 m and 6 m at about 1 m/s with pauses, and static targets.
enum DistanceSimulation {
    /// Makes packets for a trajectory with the radio model.
    static func packets(
        duration: Double, exponent: Double, radio: RadioModel, noise: inout SeededNoise,
        truth: (Double) -> Double
    ) -> [(time: Double, rssi: Double)] {
        var samples: [(time: Double, rssi: Double)] = []
        let step = 1 / radio.advertsPerSecond
        var slow = noise.gaussian() * radio.slowSigma
        var t = noise.uniform() * step
        while t < duration {
            // Ornstein–Uhlenbeck update of the slow shadowing over one advertising interval.
            let keep = exp(-step / radio.slowTime)
            slow = keep * slow + (1 - keep * keep).squareRoot() * radio.slowSigma * noise.gaussian()
            let jitter = noise.uniform() * 0.01
            let scatter = noise.gaussian() * radio.sigma
            let fade = noise.uniform() < radio.fadeProbability ? noise.uniform(radio.fadeDepth) : 0
            let received = noise.uniform() >= radio.lossProbability
            if received {
                let d = max(truth(t), 0.1)
                let rssi = radio.measuredPower - 10 * exponent * log10(d) + slow + scatter - fade
                // Scanners report whole dBm.
                samples.append((t + jitter, min(-1, rssi.rounded())))
            }
            t += step
        }
        return samples
    }

    /// A walker: waits at 1 m, then walks to 6 m and back at `speed`, pausing 30–45 s at each end.
    static func walker(
        legs count: Int, speed: Double, exponent: Double, radio: RadioModel,
        noise: inout SeededNoise
    ) -> SimulatedRun {
        var waypoints: [(time: Double, distance: Double)] = [(0, 1)]
        var legs: [(start: Double, from: Double, to: Double)] = []
        var t = noise.uniform(30...45)
        var at = 1.0
        for _ in 0..<count {
            let to = at == 1 ? 6.0 : 1.0
            waypoints.append((t, at))
            legs.append((t, at, to))
            t += abs(to - at) / speed
            waypoints.append((t, to))
            at = to
            t += noise.uniform(30...45)
        }
        waypoints.append((t, at))
        let path = waypoints
        let truth: (Double) -> Double = { time in
            guard let next = path.firstIndex(where: { $0.time > time }) else { return path.last?.distance ?? 1 }
            guard next > 0 else { return path[0].distance }
            let a = path[next - 1]
            let b = path[next]
            let f = (time - a.time) / max(b.time - a.time, 1e-9)
            return a.distance + (b.distance - a.distance) * f
        }
        let samples = packets(duration: t, exponent: exponent, radio: radio, noise: &noise, truth: truth)
        return SimulatedRun(duration: t, truth: truth, samples: samples, legs: legs)
    }

    /// A target standing still at `distance` for `duration` seconds.
    static func still(
        distance: Double, duration: Double, exponent: Double, radio: RadioModel,
        noise: inout SeededNoise
    ) -> SimulatedRun {
        let truth: (Double) -> Double = { _ in distance }
        let samples = packets(duration: duration, exponent: exponent, radio: radio, noise: &noise, truth: truth)
        return SimulatedRun(duration: duration, truth: truth, samples: samples, legs: [])
    }
}
