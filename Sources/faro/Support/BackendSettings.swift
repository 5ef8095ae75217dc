import FaroCore
import FaroNet
import FaroSettings
import FaroStore
import FoundationEssentials

/// Where Faro's backend configuration comes from, the same for every command and the window:
/// the URL from `--backend`, else `$FARO_BACKEND`, else the setting `backend-url`; the optional app key from
/// `$FARO_APP_KEY`, else the `AppKeyStore` (the Secret Service, or a 0600 file); table names from
/// `$FARO_TABLE_BEACONS`, `$FARO_TABLE_INTERESTED`, `$FARO_TABLE_CONTACTAME`, `$FARO_TABLE_RATEME`, else the
/// settings `table-beacons`, `table-interested`, `table-contactame`, `table-rateme` (defaults: the contract's); the
/// protocol generation from `--protocol`, else `$FARO_BACKEND_PROTOCOL`, else the setting `backend-protocol` (auto).
enum BackendSettings {
    /// `resolve`, for a command that cannot go on without a backend: no URL anywhere is a failure that says where
    /// to give one. `readAppKey` false: only the URL and the tables are needed, so a locked keyring does not stop it.
    static func required(
        option: String?, database: FaroDatabase, readAppKey: Bool = true, protocolOption: String? = nil
    ) throws -> BackendConfiguration {
        guard
            let configuration = try resolve(
                option: option, database: database, readAppKey: readAppKey, protocolOption: protocolOption)
        else {
            throw CommandFailure(
                description: "no backend configured: pass --backend URL, set FARO_BACKEND, or run "
                    + "'gsettings set io.github.faro.Faro backend-url URL'")
        }
        return configuration
    }

    /// The configuration, or nil when no URL is configured anywhere. `readAppKey` false leaves the stored app key
    /// alone (`faro --demo`: its own loopback backend needs none, and the user's keyring is not the demo's).
    /// `opened`: the settings as the caller already opened them (`SettingsAccess.open`, which moved the old rows);
    /// without it they are opened here.
    static func resolve(
        option: String?, database: FaroDatabase, opened: Result<GSettingsStore, SettingsError>? = nil,
        readAppKey: Bool = true, protocolOption: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> BackendConfiguration? {
        func env(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        let settings =
            opened
            ?? SettingsAccess.open(database: database, only: SettingsMigration.backendKeys, environment: environment)
        let store = try? settings.get()
        guard let url = option ?? env("FARO_BACKEND") ?? store?.text(.backendURL) else {
            if case .failure(let error) = settings {
                throw CommandFailure(
                    description: "no backend configured: pass --backend URL or set FARO_BACKEND (the saved "
                        + "settings cannot be read: \(error))")
            }
            return nil
        }
        if case .failure(let error) = settings {
            Output.error("faro: warning: \(error); using the default table names")
        }
        var appKey = env("FARO_APP_KEY")
        if appKey == nil && readAppKey {
            do throws(AppKeyError) { appKey = try AppKeyStore.standard(environment: environment).read() } catch {
                throw CommandFailure(description: "cannot read the app key: \(error) (FARO_APP_KEY overrides it)")
            }
        }
        var configuration: BackendConfiguration
        do {
            configuration = try BackendConfiguration(baseURL: url, appKey: appKey)
        } catch {
            throw CommandFailure(description: "backend \(url): \(error)")
        }
        let tables = store?.tableNames
        configuration.tables.catalog = env("FARO_TABLE_BEACONS") ?? tables?.catalog ?? configuration.tables.catalog
        configuration.tables.interested =
            env("FARO_TABLE_INTERESTED") ?? tables?.interested ?? configuration.tables.interested
        configuration.tables.contactame =
            env("FARO_TABLE_CONTACTAME") ?? tables?.contactame ?? configuration.tables.contactame
        configuration.tables.rateme = env("FARO_TABLE_RATEME") ?? tables?.rateme ?? configuration.tables.rateme
        let generation = protocolOption ?? env("FARO_BACKEND_PROTOCOL") ?? store?.text(.backendProtocol) ?? "auto"
        guard let setting = BackendProtocolSetting(generation) else {
            throw CommandFailure(
                description: "backend protocol '\(generation)' is not one of \(BackendProtocolSetting.expected)")
        }
        configuration.backendProtocol = setting
        return configuration
    }
}
