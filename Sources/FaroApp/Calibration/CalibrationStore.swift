import FaroCore

/// Where beacon calibrations and adapter offsets are kept (the profile database; see docs/calibration.md). The
/// window and monitoring read and change them through this port.
@MainActor
public protocol CalibrationStore: AnyObject {
    /// What distances heard through `adapter` are computed with.
    func powerCalibration(adapter: String) -> PowerCalibration
    /// The beacon's stored 1 m power, nil when it has none.
    func measuredPower(of identity: BeaconIdentity) -> Double?
    /// Stores a calibration made through `adapter`, and that adapter's offset when `applyToAdapter`.
    func save(_ result: CalibrationResult, adapter: String, applyToAdapter: Bool) throws(ProfileStoreError)
    /// "Restablecer": the beacon uses its advertised power again.
    func reset(_ identity: BeaconIdentity) throws(ProfileStoreError)
    /// The adapter's offset, nil when none was applied.
    func offset(adapter: String) -> Double?
    /// Forgets the adapter's offset.
    func resetOffset(adapter: String) throws(ProfileStoreError)
}
