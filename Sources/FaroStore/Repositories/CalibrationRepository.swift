import FaroCore

/// Beacon calibrations at 1 m and per-adapter offsets (see `docs/calibration.md`), in the profile database.
public struct CalibrationRepository {
    let connection: SQLiteConnection

    /// One stored calibration.
    public struct Calibration: Equatable, Sendable {
        public var identity: BeaconIdentity
        public var measuredPower: Double
        public var advertisedPower: Int8
        public var readings: Int
        /// The adapter the readings came through (a Bluetooth address, or `replay`).
        public var adapter: String
        /// Seconds since 1970, UTC.
        public var calibratedAt: Double
    }

    /// One adapter's offset: how far it reads from advertised powers, learnt from one beacon's calibration.
    public struct AdapterOffset: Equatable, Sendable {
        public var adapter: String
        public var offset: Double
        public var identity: BeaconIdentity
        public var measuredAt: Double
    }

    /// Stores (or replaces) the beacon's calibration.
    public func save(_ result: CalibrationResult, adapter: String, at time: Double) throws(StoreError) {
        try connection.query(
            "INSERT INTO calibrations (uuid, major, minor, measured_power, advertised_power, readings, adapter, "
                + "calibrated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (uuid, major, minor) DO UPDATE SET "
                + "measured_power = excluded.measured_power, advertised_power = excluded.advertised_power, "
                + "readings = excluded.readings, adapter = excluded.adapter, calibrated_at = excluded.calibrated_at",
            CalibrationRepository.key(result.identity) + [
                .real(result.measuredPower), .integer(Int64(result.advertisedPower)),
                .integer(Int64(result.readings)), .text(adapter), .real(time),
            ])
    }

    /// Every calibration, ordered by beacon.
    public func all() throws(StoreError) -> [Calibration] {
        try connection.query(
            "SELECT uuid, major, minor, measured_power, advertised_power, readings, adapter, calibrated_at "
                + "FROM calibrations ORDER BY uuid, major, minor"
        ).compactMap { r in
            guard let identity = CalibrationRepository.identity(r[0], r[1], r[2]) else { return nil }
            return Calibration(
                identity: identity, measuredPower: r[3].real ?? 0,
                advertisedPower: Int8(clamping: r[4].integer ?? 0), readings: Int(r[5].integer ?? 0),
                adapter: r[6].text ?? "", calibratedAt: r[7].real ?? 0)
        }
    }

    /// The beacon's calibration, nil when it has none.
    public func calibration(of identity: BeaconIdentity) throws(StoreError) -> Calibration? {
        try all().first { $0.identity == identity }
    }

    /// Forgets one beacon's calibration ("Restablecer"); false when it had none.
    @discardableResult
    public func delete(_ identity: BeaconIdentity) throws(StoreError) -> Bool {
        try connection.query(
            "DELETE FROM calibrations WHERE uuid = ? AND major = ? AND minor = ?", CalibrationRepository.key(identity))
        return connection.changes > 0
    }

    /// Sets the adapter's offset (the user applied it to every other beacon).
    public func setOffset(_ offset: Double, adapter: String, from identity: BeaconIdentity, at time: Double)
        throws(StoreError)
    {
        try connection.query(
            "INSERT INTO adapter_offsets (adapter, offset_db, uuid, major, minor, measured_at) VALUES (?, ?, ?, ?, ?, ?) "
                + "ON CONFLICT (adapter) DO UPDATE SET offset_db = excluded.offset_db, uuid = excluded.uuid, "
                + "major = excluded.major, minor = excluded.minor, measured_at = excluded.measured_at",
            [.text(adapter), .real(offset)] + CalibrationRepository.key(identity) + [.real(time)])
    }

    /// Every adapter's offset, ordered by adapter.
    public func offsets() throws(StoreError) -> [AdapterOffset] {
        try connection.query(
            "SELECT adapter, offset_db, uuid, major, minor, measured_at FROM adapter_offsets ORDER BY adapter"
        ).compactMap { r in
            guard let identity = CalibrationRepository.identity(r[2], r[3], r[4]) else { return nil }
            return AdapterOffset(
                adapter: r[0].text ?? "", offset: r[1].real ?? 0, identity: identity, measuredAt: r[5].real ?? 0)
        }
    }

    /// The adapter's offset, nil when none was applied.
    public func offset(adapter: String) throws(StoreError) -> Double? {
        try connection.query("SELECT offset_db FROM adapter_offsets WHERE adapter = ?", [.text(adapter)])
            .first?.first?.real
    }

    /// Forgets one adapter's offset; false when it had none.
    @discardableResult
    public func deleteOffset(adapter: String) throws(StoreError) -> Bool {
        try connection.query("DELETE FROM adapter_offsets WHERE adapter = ?", [.text(adapter)])
        return connection.changes > 0
    }

    /// Forgets every calibration and offset.
    public func deleteAll() throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            try connection.execute("DELETE FROM calibrations; DELETE FROM adapter_offsets;")
        }
    }

    /// What distances through `adapter` are computed with: every beacon's calibration and that adapter's offset.
    public func powerCalibration(adapter: String) throws(StoreError) -> PowerCalibration {
        var beacons: [BeaconIdentity: Double] = [:]
        for c in try all() { beacons[c.identity] = c.measuredPower }
        return PowerCalibration(beacons: beacons, adapterOffset: try offset(adapter: adapter) ?? 0)
    }

    static func key(_ identity: BeaconIdentity) -> [SQLiteValue] {
        [.text(identity.uuid.description), .integer(Int64(identity.major)), .integer(Int64(identity.minor))]
    }

    static func identity(_ uuid: SQLiteValue, _ major: SQLiteValue, _ minor: SQLiteValue) -> BeaconIdentity? {
        guard let text = uuid.text, let id = BeaconUUID(text), let ma = major.integer.flatMap({ UInt16(exactly: $0) }),
            let mi = minor.integer.flatMap({ UInt16(exactly: $0) })
        else { return nil }
        return BeaconIdentity(uuid: id, major: ma, minor: mi)
    }
}
