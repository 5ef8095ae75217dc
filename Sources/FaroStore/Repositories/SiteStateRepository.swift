/// Per-site flags (keyed by the microsite URL without the device id): "Enviar mis datos" was used (§9), and the
/// rating given (§10). Persisted so the options stay disabled/hidden across restarts.
public struct SiteStateRepository {
    let connection: SQLiteConnection

    /// What Faro remembers about one site.
    public struct State: Equatable, Sendable {
        public var contactSentAt: Double?
        public var rating: Int?
        public var ratedAt: Double?

        public init(contactSentAt: Double? = nil, rating: Int? = nil, ratedAt: Double? = nil) {
            self.contactSentAt = contactSentAt
            self.rating = rating
            self.ratedAt = ratedAt
        }
    }

    public func state(url: String) throws(StoreError) -> State {
        guard
            let r = try connection.query(
                "SELECT contact_sent_at, rating, rated_at FROM site_state WHERE url = ?",
                [.text(url)]
            ).first
        else { return State() }
        return State(contactSentAt: r[0].real, rating: r[1].integer.map { Int($0) }, ratedAt: r[2].real)
    }

    public func markContactSent(url: String, at time: Double) throws(StoreError) {
        try connection.query(
            "INSERT INTO site_state (url, contact_sent_at) VALUES (?, ?) "
                + "ON CONFLICT (url) DO UPDATE SET contact_sent_at = excluded.contact_sent_at",
            [.text(url), .real(time)])
    }

    public func markRated(url: String, rating: Int, at time: Double) throws(StoreError) {
        try connection.query(
            "INSERT INTO site_state (url, rating, rated_at) VALUES (?, ?, ?) "
                + "ON CONFLICT (url) DO UPDATE SET rating = excluded.rating, rated_at = excluded.rated_at",
            [.text(url), .integer(Int64(rating)), .real(time)])
    }
}

/// Small key/value settings kept with the data (the backend URL, monitoring choice, …).
public struct SettingsRepository {
    let connection: SQLiteConnection

    /// The saved backend URL (used when neither `--backend` nor `FARO_BACKEND` is given).
    public static let backendURLKey = "backend-url"

    public func value(_ key: String) throws(StoreError) -> String? {
        try connection.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.first?.text
    }

    public func set(_ key: String, _ value: String?) throws(StoreError) {
        if let value {
            try connection.query(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(key), .text(value)])
        } else {
            try connection.query("DELETE FROM settings WHERE key = ?", [.text(key)])
        }
    }
}
