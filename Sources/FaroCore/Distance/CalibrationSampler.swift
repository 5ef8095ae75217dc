#if canImport(Glibc)
    import Glibc  // log10
#endif

/// Collects one beacon's readings while the user holds the device at a known distance, and turns them into a
/// calibration: a robust estimate of the readings, never the last reading alone (docs/calibration.md). The estimate
/// is the interquartile mean of the raw RSSI readings (the mean of the middle half: a quarter trimmed at each end),
/// not a statistic of the Kalman filter's outputs: those start at the first reading and each leans on the ones
/// before it, so with the dozen or so readings a calibration gets at BlueZ's one report a second, the first
/// readings weighed on most of them. At a sparse cadence (a reading every ~10 s) it simply needs longer: it
/// refuses to settle on fewer than `minimumReadings`.
public struct CalibrationSampler: Sendable {
    /// The beacon being calibrated.
    public let target: BeaconIdentity
    /// The fewest readings an estimate is made from.
    public let minimumReadings: Int
    /// The usable readings (dBm), in order.
    public private(set) var values: [Double] = []
    /// The power the beacon advertises (its latest advertisement's).
    public private(set) var advertisedPower: Int8?
    /// When the first and latest readings arrived (the sightings' clock).
    public private(set) var firstTime: Double?
    public private(set) var lastTime: Double?

    public static let defaultMinimumReadings = 10

    public init(target: BeaconIdentity, minimumReadings: Int = CalibrationSampler.defaultMinimumReadings) {
        self.target = target
        self.minimumReadings = max(1, minimumReadings)
    }

    /// How many usable readings of the target arrived.
    public var readings: Int { values.count }

    /// Whether enough readings arrived for an estimate.
    public var hasEnough: Bool { readings >= minimumReadings }

    /// Takes one sighting; other beacons' and unusable readings (RSSI 127, ≥ 0) are ignored.
    public mutating func add(_ sighting: BeaconSighting) {
        guard sighting.beacon.identity == target else { return }
        advertisedPower = sighting.beacon.measuredPower
        guard sighting.rssi < 0 else { return }
        values.append(Double(sighting.rssi))
        if firstTime == nil { firstTime = sighting.time }
        lastTime = sighting.time
    }

    /// The estimate so far (the interquartile mean of the readings), or nil before the first reading.
    public var estimate: Double? { CalibrationSampler.interquartileMean(values) }

    /// The calibration for readings taken `distance` metres from the beacon, with the path-loss exponent the
    /// distance model uses (the 1 m power is what the estimate would read 1 m away).
    public func result(distance: Double = 1, model: LogDistancePathLoss = LogDistancePathLoss(exponent: 3.0))
        throws(CalibrationError) -> CalibrationResult
    {
        guard CalibrationLimits.distance.contains(distance) else { throw .invalidDistance(distance) }
        guard let advertised = advertisedPower, let estimate else { throw .notHeard(target) }
        guard readings >= minimumReadings else { throw .tooFewReadings(found: readings, needed: minimumReadings) }
        let power = estimate + 10 * model.exponent * log10(distance)
        guard CalibrationLimits.power.contains(power) else { throw .absurdPower(power) }
        let rounded = (power * 10).rounded() / 10
        let offset = rounded - Double(advertised)
        guard abs(offset) <= CalibrationLimits.offset else { throw .absurdOffset(offset) }
        return CalibrationResult(
            identity: target, measuredPower: rounded, advertisedPower: advertised, readings: readings,
            distanceBefore: model.distance(rssi: estimate, measuredPower: Double(advertised)),
            distanceAfter: model.distance(rssi: estimate, measuredPower: rounded))
    }

    /// The mean of the middle half of `values`: sorted, a quarter (rounded down) dropped at each end, so deep fades
    /// and reflections weigh nothing while the rest is averaged; nil when empty.
    public static func interquartileMean(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let cut = sorted.count / 4
        let middle = sorted[cut..<(sorted.count - cut)]
        return middle.reduce(0, +) / Double(middle.count)
    }

    /// The median of `values` (the mean of the middle two for an even count), nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
