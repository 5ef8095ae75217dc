import Dispatch
import FaroNet
import FaroStore
import FoundationEssentials
import Glibc

/// Where Faro's backend configuration comes from, the same for every command and the window:
/// the URL from `--backend`, else `$FARO_BACKEND`, else the saved setting `backend-url`; the optional app key from
/// `$FARO_APP_KEY` or the setting `app-key`; table names from `$FARO_TABLE_BEACONS`, `$FARO_TABLE_INTERESTED`,
/// `$FARO_TABLE_CONTACTAME`, `$FARO_TABLE_RATEME` or the settings `table.<name>` (defaults: the contract's names).
enum BackendSettings {
    /// The configuration, or nil when no URL is configured anywhere.
    static func resolve(
        option: String?, database: FaroDatabase,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> BackendConfiguration? {
        func setting(_ key: String) -> String? {
            guard let value = try? database.settings.value(key), !value.isEmpty else { return nil }
            return value
        }
        func env(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        guard let url = option ?? env("FARO_BACKEND") ?? setting(SettingsRepository.backendURLKey) else { return nil }
        var configuration: BackendConfiguration
        do {
            configuration = try BackendConfiguration(baseURL: url, appKey: env("FARO_APP_KEY") ?? setting("app-key"))
        } catch {
            throw CommandFailure(description: "backend \(url): \(error)")
        }
        configuration.tables.catalog =
            env("FARO_TABLE_BEACONS") ?? setting("table.beacons") ?? configuration.tables.catalog
        configuration.tables.interested =
            env("FARO_TABLE_INTERESTED") ?? setting("table.interested")
            ?? configuration.tables.interested
        configuration.tables.contactame =
            env("FARO_TABLE_CONTACTAME") ?? setting("table.contactame")
            ?? configuration.tables.contactame
        configuration.tables.rateme = env("FARO_TABLE_RATEME") ?? setting("table.rateme") ?? configuration.tables.rateme
        return configuration
    }
}
