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
