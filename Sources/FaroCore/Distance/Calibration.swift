#if canImport(Glibc)
    import Glibc  // log10
#endif

/// The 1 m power every distance is computed with: a beacon's own calibration when it has one, otherwise the
/// power it advertises corrected by the adapter's offset (when the user applied one). See `docs/calibration.md`.
public struct PowerCalibration: Sendable, Equatable {
    /// Measured 1 m power (dBm) of each calibrated beacon.
    public var beacons: [BeaconIdentity: Double]
    /// How far (dB) the adapter in use reads from what beacons advertise; added to the advertised power of every
    /// beacon without a calibration of its own. 0 when none was applied.
    public var adapterOffset: Double

    public init(beacons: [BeaconIdentity: Double] = [:], adapterOffset: Double = 0) {
        self.beacons = beacons
        self.adapterOffset = adapterOffset
    }

    /// No calibration at all: every beacon's advertised power as it is.
    public static let none = PowerCalibration()

    /// Whether nothing changes any advertised power.
    public var isEmpty: Bool { beacons.isEmpty && adapterOffset == 0 }

    /// The 1 m power to compute `identity`'s distance with.
    @inlinable
    public func power(for identity: BeaconIdentity, advertised: Int8) -> Double {
        if !beacons.isEmpty, let own = beacons[identity] { return own }
        return Double(advertised) + adapterOffset
    }
}

/// Why a calibration cannot be made or stored.
public enum CalibrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The beacon was not heard at all.
    case notHeard(BeaconIdentity)
    /// Fewer readings than a robust estimate needs.
    case tooFewReadings(found: Int, needed: Int)
    /// A 1 m power no beacon can have (outside −100…0 dBm).
    case absurdPower(Double)
    /// An adapter offset beyond ±30 dB: the reading was not taken at the stated distance, or the beacon lies.
    case absurdOffset(Double)
    /// A distance that is not a positive, plausible number of metres.
    case invalidDistance(Double)

    public var description: String {
        switch self {
        case .notHeard(let identity):
            return "the beacon \(identity) was not heard; nothing was stored"
        case .tooFewReadings(let found, let needed):
            return "only \(found) readings of the beacon (at least \(needed) are needed); nothing was stored"
        case .absurdPower(let power):
            return "the measured 1 m power \(String(cFormat: "%.1f", power)) dBm is outside −100…0 dBm; "
                + "nothing was stored"
        case .absurdOffset(let offset):
            return "the adapter offset \(String(cFormat: "%.1f", offset)) dB is beyond ±30 dB (was the device at "
                + "the stated distance?); nothing was stored"
        case .invalidDistance(let metres):
            return "the distance \(String(cFormat: "%.2f", metres)) m must be between 0.1 and 10 m"
        }
    }
}

/// What a calibration measured.
public struct CalibrationResult: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// The beacon's 1 m power as measured (dBm).
    public var measuredPower: Double
    /// What the beacon advertises as its 1 m power (dBm).
    public var advertisedPower: Int8
    /// How many readings the estimate used.
    public var readings: Int
    /// `measuredPower − advertisedPower`: how far this adapter reads from the advertised power.
    public var adapterOffset: Double { measuredPower - Double(advertisedPower) }
    /// The distance the readings gave with the advertised power, and with the measured one.
    public var distanceBefore: Double?
    public var distanceAfter: Double?
}

/// Collects one beacon's readings while the user holds the device at a known distance, and turns them into a
/// calibration: a robust estimate (median) of what the RSSI filter gives after each reading, never the last
/// reading alone. At a sparse cadence (a reading every ~10 s) it simply needs longer: it refuses to settle on
/// fewer than `minimumReadings`.
public struct CalibrationSampler: Sendable {
    /// The beacon being calibrated.
    public let target: BeaconIdentity
    /// The fewest readings an estimate is made from.
    public let minimumReadings: Int
    private var filter: KalmanRSSIFilter
    /// The filter's output after each reading, in order.
    public private(set) var filtered: [Double] = []
    /// The power the beacon advertises (its latest advertisement's).
    public private(set) var advertisedPower: Int8?
    /// When the first and latest readings arrived (the sightings' clock).
    public private(set) var firstTime: Double?
    public private(set) var lastTime: Double?

    public static let defaultMinimumReadings = 10

    public init(
        target: BeaconIdentity, minimumReadings: Int = CalibrationSampler.defaultMinimumReadings,
        filter: KalmanRSSIFilter = KalmanRSSIFilter()
    ) {
        self.target = target
        self.minimumReadings = max(1, minimumReadings)
        self.filter = filter
    }

    /// How many usable readings of the target arrived.
    public var readings: Int { filtered.count }

    /// Whether enough readings arrived for an estimate.
    public var hasEnough: Bool { readings >= minimumReadings }

    /// Takes one sighting; other beacons' and unusable readings (RSSI 127, ≥ 0) are ignored.
    public mutating func add(_ sighting: BeaconSighting) {
        guard sighting.beacon.identity == target else { return }
        advertisedPower = sighting.beacon.measuredPower
        guard sighting.rssi < 0 else { return }
        filter.add(rssi: Double(sighting.rssi), at: sighting.time)
        guard let value = filter.smoothed(at: sighting.time) else { return }
        filtered.append(value)
        if firstTime == nil { firstTime = sighting.time }
        lastTime = sighting.time
    }

    /// The estimate so far (the median of the filtered values), or nil before the first reading.
    public var estimate: Double? { CalibrationSampler.median(filtered) }

    /// The calibration for readings taken `distance` metres from the beacon, with the path-loss exponent the
    /// distance model uses (the 1 m power is what the estimate would read 1 m away).
    public func result(distance: Double = 1, model: LogDistancePathLoss = LogDistancePathLoss(exponent: 3.0))
        throws(CalibrationError) -> CalibrationResult
    {
        guard distance >= 0.1, distance <= 10 else { throw .invalidDistance(distance) }
        guard let advertised = advertisedPower, let estimate, !filtered.isEmpty else { throw .notHeard(target) }
        guard readings >= minimumReadings else { throw .tooFewReadings(found: readings, needed: minimumReadings) }
        let power = estimate + 10 * model.exponent * log10(distance)
        guard power >= -100, power <= 0 else { throw .absurdPower(power) }
        let rounded = (power * 10).rounded() / 10
        let offset = rounded - Double(advertised)
        guard abs(offset) <= 30 else { throw .absurdOffset(offset) }
        return CalibrationResult(
            identity: target, measuredPower: rounded, advertisedPower: advertised, readings: readings,
            distanceBefore: model.distance(rssi: estimate, measuredPower: Double(advertised)),
            distanceAfter: model.distance(rssi: estimate, measuredPower: rounded))
    }

    /// The median of `values` (the mean of the middle two for an even count), nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}

extension BeaconIdentity {
    /// Parses `UUID:MAJOR:MINOR` (the form `faro calibrate --beacon` takes and `--list` prints); nil when any part
    /// is malformed or out of range.
    public init?(colonSeparated text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let uuid = BeaconUUID(String(parts[0])),
            let major = UInt16(parts[1]), let minor = UInt16(parts[2])
        else { return nil }
        self.init(uuid: uuid, major: major, minor: minor)
    }

    /// `uuid:major:minor`, as `faro calibrate` prints it.
    public var colonSeparated: String { "\(uuid):\(major):\(minor)" }
}
