import FaroCore

/// "Lugares visitados" (see `docs/visits.md`): each zone entry of a catalogued place, kept only on this device.
/// Times are seconds since 1970, UTC; the list is ordered by entry time and then by row id, so a clock set back
/// or a change of time zone neither reorders nor duplicates anything already stored.
public struct VisitRepository {
    let connection: SQLiteConnection

    /// One visit.
    public struct Visit: Equatable, Sendable {
        public var id: Int64
        /// The catalog row's id.
        public var placeID: String
        public var business: String
        public var title: String
        public var url: String
        public var identity: BeaconIdentity
        public var enteredAt: Double
        /// Nil while the user is still there.
        public var leftAt: Double?
        /// The closest distance seen during the visit, metres.
        public var closest: Double?
    }

    /// Records an entry; returns the visit's id. An entry into a place whose visit is still open (a restart
    /// while inside) continues that visit instead of adding a second one.
    @discardableResult
    public func enter(
        placeID: String, business: String, title: String, url: String, identity: BeaconIdentity, at time: Double,
        distance: Double? = nil
    ) throws(StoreError) -> Int64 {
        try connection.transaction { () throws(StoreError) -> Int64 in
            if let open = try connection.query(
                "SELECT id FROM visits WHERE place_id = ? AND left_at IS NULL ORDER BY id DESC LIMIT 1",
                [.text(placeID)]
            ).first?.first?.integer {
                return open
            }
            try connection.query(
                "INSERT INTO visits (place_id, cliente, titulo, url, uuid, major, minor, entered_at, closest_m) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(placeID), .text(business), .text(title), .text(url)] + CalibrationRepository.key(identity)
                    + [.real(time), distance.map { .real($0) } ?? .null])
            return connection.lastInsertRowID
        }
    }

    /// A closer distance seen while inside the place.
    public func sawDistance(placeID: String, _ distance: Double) throws(StoreError) {
        try connection.query(
            "UPDATE visits SET closest_m = ? WHERE place_id = ? AND left_at IS NULL "
                + "AND (closest_m IS NULL OR closest_m > ?)",
            [.real(distance), .text(placeID), .real(distance)])
    }

    /// The user left the place. A time before the entry (a clock set back) is stored as the entry time.
    public func leave(placeID: String, at time: Double) throws(StoreError) {
        try connection.query(
            "UPDATE visits SET left_at = max(entered_at, ?) WHERE place_id = ? AND left_at IS NULL",
            [.real(time), .text(placeID)])
    }

    /// Closes every open visit (monitoring stopped, the app quits) at `time`.
    public func leaveAll(at time: Double) throws(StoreError) {
        try connection.query("UPDATE visits SET left_at = max(entered_at, ?) WHERE left_at IS NULL", [.real(time)])
    }

    /// Visits entered at or after `since` (nil: all), newest first, at most `limit`.
    public func list(since: Double? = nil, limit: Int = 500) throws(StoreError) -> [Visit] {
        try visits(
            where: "entered_at >= ?", [.real(since ?? -.infinity)], limit: limit)
    }

    /// The newest visits of the places `placeIDs`, at most `limit`: a search of "Lugares visitados" reads the
    /// visits of the places whose names match, over the whole history (docs/visits.md).
    public func list(places placeIDs: [String], limit: Int = 500) throws(StoreError) -> [Visit] {
        guard !placeIDs.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: placeIDs.count).joined(separator: ", ")
        return try visits(where: "place_id IN (\(marks))", placeIDs.map { .text($0) }, limit: limit)
    }

    /// The newest visit's row id (0 with none): it changes when a visit is added, which is when a place can have a
    /// new name.
    public func lastID() throws(StoreError) -> Int64 {
        try connection.query("SELECT max(id) FROM visits").first?.first?.integer ?? 0
    }

    /// Every name a place was visited under: one row per place and business, title and beacon it had, whatever the
    /// number of visits. What a search matches before any visit is read.
    public func visitedNames() throws(StoreError) -> [Visit] {
        try connection.query(
            "SELECT place_id, cliente, titulo, url, uuid, major, minor FROM visits "
                + "GROUP BY place_id, cliente, titulo, uuid, major, minor"
        ).compactMap { r in
            guard let identity = CalibrationRepository.identity(r[4], r[5], r[6]) else { return nil }
            return Visit(
                id: 0, placeID: r[0].text ?? "", business: r[1].text ?? "", title: r[2].text ?? "",
                url: r[3].text ?? "", identity: identity, enteredAt: 0, leftAt: nil, closest: nil)
        }
    }

    private func visits(where condition: String, _ values: [SQLiteValue], limit: Int) throws(StoreError) -> [Visit] {
        try connection.query(
            "SELECT id, place_id, cliente, titulo, url, uuid, major, minor, entered_at, left_at, closest_m "
                + "FROM visits WHERE \(condition) ORDER BY entered_at DESC, id DESC LIMIT ?",
            values + [.integer(Int64(max(0, limit)))]
        ).compactMap { r in
            guard let identity = CalibrationRepository.identity(r[5], r[6], r[7]), let id = r[0].integer else {
                return nil
            }
            return Visit(
                id: id, placeID: r[1].text ?? "", business: r[2].text ?? "", title: r[3].text ?? "",
                url: r[4].text ?? "", identity: identity, enteredAt: r[8].real ?? 0, leftAt: r[9].real,
                closest: r[10].real)
        }
    }

    /// How many visits are stored.
    public func count() throws(StoreError) -> Int {
        Int(try connection.query("SELECT count(*) FROM visits").first?.first?.integer ?? 0)
    }

    /// "Borrar historial": every visit. Returns how many were deleted.
    @discardableResult
    public func clear() throws(StoreError) -> Int {
        try connection.query("DELETE FROM visits")
        return connection.changes
    }

    /// Retention: deletes visits entered before `time`. Returns how many were deleted.
    @discardableResult
    public func deleteEntered(before time: Double) throws(StoreError) -> Int {
        try connection.query("DELETE FROM visits WHERE entered_at < ?", [.real(time)])
        return connection.changes
    }
}
