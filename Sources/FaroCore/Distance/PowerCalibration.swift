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
