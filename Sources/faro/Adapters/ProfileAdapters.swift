import FaroApp
import FaroCore
import FaroStore
import FoundationEssentials

/// Calibrations, adapter offsets, visits and muted places in the profile database, behind FaroApp's ports (main thread only;
/// each write is one short local transaction).
@MainActor
final class DatabaseProfileAdapters: CalibrationStore, VisitRecorder, VisitHistory, MutedPlaceStore {
    let database: FaroDatabase
    let clock: () -> Double

    init(database: FaroDatabase, clock: @escaping () -> Double = { Date().timeIntervalSince1970 }) {
        self.database = database
        self.clock = clock
    }

    func powerCalibration(adapter: String) -> PowerCalibration {
        (try? database.calibrations.powerCalibration(adapter: adapter)) ?? .none
    }

    func measuredPower(of identity: BeaconIdentity) -> Double? {
        (try? database.calibrations.calibration(of: identity))?.measuredPower
    }

    func save(_ result: CalibrationResult, adapter: String, applyToAdapter: Bool) throws(ProfileStoreError) {
        let now = clock()
        do {
            try database.connection.transaction { () throws(StoreError) in
                try database.calibrations.save(result, adapter: adapter, at: now)
                if applyToAdapter {
                    try database.calibrations.setOffset(
                        result.adapterOffset, adapter: adapter, from: result.identity, at: now)
                }
            }
        } catch { throw ProfileStoreError(error) }
    }

    func reset(_ identity: BeaconIdentity) throws(ProfileStoreError) {
        do { try database.calibrations.delete(identity) } catch { throw ProfileStoreError(error) }
    }

    func offset(adapter: String) -> Double? { try? database.calibrations.offset(adapter: adapter) }

    func resetOffset(adapter: String) throws(ProfileStoreError) {
        do { try database.calibrations.deleteOffset(adapter: adapter) } catch {
            throw ProfileStoreError(error)
        }
    }

    // MARK: visits

    /// A closer distance is kept only when it is 5 % closer than the closest known for the visit.
    static let closerBy = 0.95
    /// Closer distances are written together at most this often (seconds), and with the visit's exit: a place in
    /// range costs no write per tick (docs/storage.md).
    static let closestWriteInterval = 60.0

    /// The closest distance known for each open visit (written or not).
    /// The names the places were visited under, with the newest visit's id when they were read: a search reads
    /// them again only after a visit was added, not at each key typed.
    private var visitedNames: (lastID: Int64, names: [(id: String, place: CatalogPlace)])?
    private var closest: [String: Double] = [:]
    /// Closest distances not written yet.
    private var unwritten: [String: Double] = [:]
    private var lastClosestWrite = -Double.infinity

    func ranged(regionID: String, distance: Double) {
        if let known = closest[regionID], distance >= known * Self.closerBy { return }
        closest[regionID] = distance
        unwritten[regionID] = distance
        let now = clock()
        // A clock set back writes at once rather than waiting for the old time to come round again.
        if now - lastClosestWrite >= Self.closestWriteInterval || now < lastClosestWrite { flush() }
    }

    /// Writes the closest distances not written yet, in one transaction.
    func flush() {
        lastClosestWrite = clock()
        guard !unwritten.isEmpty else { return }
        let pending = unwritten
        unwritten.removeAll()
        try? database.connection.transaction { () throws(StoreError) in
            for (place, distance) in pending { try database.visits.sawDistance(placeID: place, distance) }
        }
    }

    func entered(regionID: String, place: CatalogPlace, at time: Double) {
        closest[regionID] = nil
        unwritten[regionID] = nil
        do {
            try database.visits.enter(
                placeID: regionID, business: place.cliente, title: place.titulo, url: place.url,
                identity: place.identity, at: time)
        } catch {
            Output.error("faro: the visit to \(place.titulo) was not recorded: \(error)")
        }
    }

    func left(regionID: String, at time: Double) {
        closest[regionID] = nil
        let distance = unwritten.removeValue(forKey: regionID)
        try? database.connection.transaction { () throws(StoreError) in
            if let distance { try database.visits.sawDistance(placeID: regionID, distance) }
            try database.visits.leave(placeID: regionID, at: time)
        }
    }

    func leftAll(at time: Double) {
        let pending = unwritten
        closest.removeAll()
        unwritten.removeAll()
        try? database.connection.transaction { () throws(StoreError) in
            for (place, distance) in pending { try database.visits.sawDistance(placeID: place, distance) }
            try database.visits.leaveAll(at: time)
        }
    }

    func visits(limit: Int) -> [VisitEntry] {
        ((try? database.visits.list(limit: limit)) ?? []).map(Self.entry)
    }

    /// Over the whole history: the places whose names match first, then their newest visits (docs/visits.md).
    func visits(matching query: SearchQuery, limit: Int) -> [VisitEntry] {
        guard !query.isEmpty else { return visits(limit: limit) }
        let lastID = (try? database.visits.lastID()) ?? 0
        if visitedNames?.lastID != lastID {
            let names = ((try? database.visits.visitedNames()) ?? []).map { (id: $0.placeID, place: Self.place($0)) }
            visitedNames = (lastID, names)
        }
        let places = SearchResults.placeIDs(visitedNames?.names ?? [], matching: query)
        let found = ((try? database.visits.list(places: places, limit: limit)) ?? []).map(Self.entry)
        // A place renamed in the catalog keeps its older visits under their old names: each visit matches on its own.
        return SearchResults.visits(found, matching: query)
    }

    private static func place(_ v: VisitRepository.Visit) -> CatalogPlace {
        CatalogPlace(identity: v.identity, cliente: v.business, titulo: v.title, url: v.url)
    }

    private static func entry(_ v: VisitRepository.Visit) -> VisitEntry {
        VisitEntry(id: v.id, place: place(v), enteredAt: v.enteredAt, leftAt: v.leftAt, closest: v.closest)
    }

    func clearVisits() throws(ProfileStoreError) {
        do { try database.visits.clear() } catch { throw ProfileStoreError(error) }
    }

    // MARK: muted places

    func mutedPlaces() throws(ProfileStoreError) -> [MutedPlace] {
        do { return try database.mutedPlaces.list() } catch { throw ProfileStoreError(error) }
    }

    func mute(_ place: MutedPlace) throws(ProfileStoreError) {
        do { try database.mutedPlaces.mute(place) } catch { throw ProfileStoreError(error) }
    }

    @discardableResult
    func unmute(key: String) throws(ProfileStoreError) -> Bool {
        do { return try database.mutedPlaces.unmute(key: key) } catch { throw ProfileStoreError(error) }
    }
}
