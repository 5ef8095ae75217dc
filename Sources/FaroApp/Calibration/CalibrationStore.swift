import FaroCore

/// Why a calibration or a visit could not be stored or forgotten, in words for the user.
public struct ProfileStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

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

/// What "Probar conexión" found (one catalog request; see docs/preferences.md).
public enum ConnectionCheck: Equatable, Sendable {
    /// The backend listed its catalog: `places` live places, speaking `generation` ("3.0.0 (Datasync)").
    case connected(places: Int, generation: String)
    /// HTTP 401 or 403: check the app key.
    case refused(status: Int)
    /// Not HTTPS and not this computer.
    case notHTTPS
    case notAURL
    /// Nothing answered, with the network library's words.
    case noAnswer(String)
    /// It answered, but not as a Faro backend does.
    case unexpected(String)
}

/// One visit as "Lugares visitados" shows it (times in seconds since 1970, UTC).
public struct VisitEntry: Sendable, Equatable {
    public var id: Int64
    public var place: CatalogPlace
    public var enteredAt: Double
    public var leftAt: Double?
    public var closest: Double?

    public init(id: Int64, place: CatalogPlace, enteredAt: Double, leftAt: Double?, closest: Double?) {
        self.id = id
        self.place = place
        self.enteredAt = enteredAt
        self.leftAt = leftAt
        self.closest = closest
    }
}

/// The stored visits, for the "Lugares visitados" page.
@MainActor
public protocol VisitHistory: AnyObject {
    /// The newest visits first, at most `limit`.
    func visits(limit: Int) -> [VisitEntry]
    /// "Borrar historial".
    func clearVisits() throws(ProfileStoreError)
}
