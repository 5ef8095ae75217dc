import FaroApp
import FaroStore

/// Moves the settings older Faros kept in the SQLite `settings` table into GSettings, and the app key into the
/// `AppKeyStore`, once: every row that was moved is deleted, so the table empties and nothing reads it again. A
/// value that cannot be moved stays in its row (nothing is lost) and is reported.
public enum SettingsMigration {
    /// What one run did.
    public struct Report: Equatable, Sendable {
        /// The SQLite keys moved (or dropped because GSettings already held a newer value).
        public var moved: [String] = []
        /// The keys left in SQLite, with why.
        public var problems: [String] = []
    }

    /// The SQLite key of each setting older Faros stored, and where it goes now (nil: the app key).
    static let legacyKeys: [(sqlite: String, key: SettingsKey?)] = [
        ("monitoring", .monitoring),
        ("told-about-background", .toldAboutBackground),
        ("backend-url", .backendURL),
        ("table.beacons", .tableBeacons),
        ("table.interested", .tableInterested),
        ("table.contactame", .tableContactame),
        ("table.rateme", .tableRateme),
        ("app-key", nil),
    ]

    /// The backend's settings (URL, table names, app key): what the terminal commands read.
    public static let backendKeys: Set<String> = [
        "backend-url", "table.beacons", "table.interested", "table.contactame", "table.rateme", "app-key",
    ]

    /// Moves the rows named in `only` (their SQLite keys; nil: all of them). `appKeys` is only made when an old
    /// app key is there to move: `AppKeyStore.standard` asks the session bus for a Secret Service, and a launch with
    /// nothing to move (every launch after the first) should not pay for that round trip.
    public static func run(
        from database: FaroDatabase, to settings: GSettingsStore, appKeys: @autoclosure () -> AppKeyStore,
        only: Set<String>? = nil
    ) -> Report {
        var report = Report()
        for (sqlite, key) in legacyKeys where only?.contains(sqlite) ?? true {
            let stored: String?
            do { stored = try database.settings.value(sqlite) } catch {
                report.problems.append("\(sqlite): \(error.description)")
                continue
            }
            guard let value = stored else { continue }
            do {
                if let key {
                    // A value set in GSettings since is newer than the old row: it stays.
                    if !settings.hasUserValue(key) {
                        try settings.set(key.settingsKey, value.isEmpty ? nil : value)
                    }
                } else if !value.isEmpty {
                    let store = appKeys()
                    if try store.read() == nil { try store.store(value) }
                }
            } catch let error as SettingsError {
                report.problems.append("\(sqlite): \(error.description)")
                continue
            } catch let error as AppKeyError {
                report.problems.append("\(sqlite): \(error.description)")
                continue
            } catch {
                report.problems.append("\(sqlite): \(error)")
                continue
            }
            settings.sync()
            do {
                try database.settings.set(sqlite, nil)
                report.moved.append(sqlite)
            } catch {
                report.problems.append("\(sqlite): moved, but the old row could not be removed: \(error.description)")
            }
        }
        return report
    }
}

extension GSettingsStore {
    /// Whether `key` holds a value set by someone (not the schema's default).
    func hasUserValue(_ key: SettingsKey) -> Bool {
        let keys = key == .monitoring ? [SettingsKey.monitoring, .pausedUntil] : [key]
        return keys.contains { userValue($0.rawValue) }
    }
}
