import FaroApp
import FaroCore
import FaroStore

/// Settings kept in Faro's database: the window's fallback when the GSettings schema cannot be found (what it keeps
/// there lasts for that profile only).
final class DatabaseSettingsAdapter: SettingsStore {
    let database: FaroDatabase

    init(database: FaroDatabase) { self.database = database }

    func string(_ key: String) -> String? { (try? database.settings.value(key)) ?? nil }

    func setString(_ key: String, _ value: String?) { try? database.settings.set(key, value) }
}
