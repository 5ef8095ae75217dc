/// CoreLocation's proximity classes, as the beacon list shows them.
public enum Proximity: String, Sendable, CaseIterable {
    case immediate, near, far, unknown

    /// Classifies a distance estimate: immediate below 0.5 m, near below 3 m, far beyond; unknown without one.
    public init(distance: Double?) {
        guard let d = distance, d.isFinite, d >= 0 else {
            self = .unknown
            return
        }
        self = d < 0.5 ? .immediate : d < 3 ? .near : .far
    }
}
