/// Why a calibration cannot be made or stored: values, worded by whoever shows them (the window through gettext,
/// `faro calibrate` in English), never words of their own.
public enum CalibrationError: Error, Equatable, Sendable {
    /// The beacon was not heard at all.
    case notHeard(BeaconIdentity)
    /// Fewer readings than a robust estimate needs.
    case tooFewReadings(found: Int, needed: Int)
    /// A 1 m power (dBm) no beacon can have: outside `CalibrationLimits.power`.
    case absurdPower(Double)
    /// An adapter offset (dB) beyond ±`CalibrationLimits.offset`: the reading was not taken at the stated
    /// distance, or the beacon lies.
    case absurdOffset(Double)
    /// A distance (metres) outside `CalibrationLimits.distance`.
    case invalidDistance(Double)
}

/// The bounds a calibration must fall within (docs/calibration.md); the refusals' wordings quote them.
public enum CalibrationLimits {
    /// The plausible 1 m power of a beacon, dBm.
    public static let power: ClosedRange<Double> = -100...0
    /// The largest adapter offset believed, dB (either sign).
    public static let offset = 30.0
    /// The distances a calibration may be taken at, metres.
    public static let distance: ClosedRange<Double> = 0.1...10
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
