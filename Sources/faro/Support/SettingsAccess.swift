import FaroSettings
import FaroStore
import FoundationEssentials

/// Opens Faro's settings (GSettings) for a command or the window, moving what an older Faro kept in the SQLite
/// `settings` table into them first (once: moved rows are deleted). What could not be moved is said on stderr and
/// stays where it was. `only` limits the move to some SQLite keys (`SettingsMigration.backendKeys` for the
/// terminal commands: the window, which moves everything, keeps reading the rest until it uses this store).
enum SettingsAccess {
    static func open(
        database: FaroDatabase, only: Set<String>? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<GSettingsStore, SettingsError> {
        let store: GSettingsStore
        do { store = try GSettingsStore(schemaID: InstalledAppID.resolve()) } catch { return .failure(error) }
        let report = SettingsMigration.run(
            from: database, to: store, appKeys: AppKeyStore.standard(environment: environment), only: only)
        for problem in report.problems { Output.error("faro: a setting was not moved from the database: \(problem)") }
        return .success(store)
    }
}
