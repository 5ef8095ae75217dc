import FaroCore

/// Where visits to catalogued places are recorded (docs/visits.md).
@MainActor
public protocol VisitRecorder: AnyObject {
    /// The user entered `place` (its region `regionID`) at `time` (seconds since 1970, UTC).
    func entered(regionID: String, place: CatalogPlace, at time: Double)
    /// A catalogued place's beacon was ranged at `distance` metres (the visit keeps the closest).
    func ranged(regionID: String, distance: Double)
    /// The user left the place of region `regionID`.
    func left(regionID: String, at time: Double)
    /// Scanning stopped: every open visit ends now.
    func leftAll(at time: Double)
}
