/// A smoothing strategy for one beacon's RSSI samples. One value per beacon; the ranging engine feeds it every
/// sample and asks for the smoothed value once per tick.
public protocol RSSIFilter: Sendable {
    /// Adds one sample (dBm) received at `time` (seconds on the engine's clock).
    mutating func add(rssi: Double, at time: Double)
    /// The smoothed RSSI at `time`, or nil when there is no usable sample.
    mutating func smoothed(at time: Double) -> Double?
}

/// AltBeacon's `RunningAverageRssiFilter`, the reference Faro is measured against: every sample of the last
/// `window` seconds, sorted, the top and bottom tenth dropped, the rest averaged.
public struct RunningAverageRSSIFilter: RSSIFilter {
    public var window: Double
    private var samples: [(time: Double, rssi: Double)] = []

    public init(window: Double = 20) { self.window = window }

    public mutating func add(rssi: Double, at time: Double) {
        samples.append((time, rssi))
        // Keep memory bounded between ticks: drop what the next calculation would drop anyway.
        if samples.count > 64, let first = samples.first, time - first.time > window { prune(at: time) }
    }

    private mutating func prune(at time: Double) {
        if let keep = samples.firstIndex(where: { time - $0.time <= window }) {
            samples.removeFirst(keep)
        } else {
            samples.removeAll(keepingCapacity: true)
        }
    }

    public mutating func smoothed(at time: Double) -> Double? {
        prune(at: time)
        guard !samples.isEmpty else { return nil }
        let sorted = samples.map(\.rssi).sorted()
        let size = sorted.count
        var start = 0
        var end = size - 1
        // The same trimming indices as AltBeacon's RunningAverageRssiFilter.calculateRssi.
        if size > 2 {
            start = size / 10 + 1
            end = size - size / 10 - 2
        }
        guard start <= end else { return sorted[size / 2] }
        var sum = 0.0
        for i in start...end { sum += sorted[i] }
        return sum / Double(end - start + 1)
    }
}

/// AltBeacon's `ArmaRssiFilter`: an exponential moving average, `x ← x − speed·(x − rssi)`.
public struct ArmaRSSIFilter: RSSIFilter {
    public var speed: Double
    private var value: Double?

    public init(speed: Double = 0.1) { self.speed = speed }

    public mutating func add(rssi: Double, at time: Double) {
        if let v = value { value = v - speed * (v - rssi) } else { value = rssi }
    }

    public func smoothed(at time: Double) -> Double? { value }
}
