import FaroApp
import FaroCore
import FaroNet
import FaroSettings

/// The window's backend configuration, read again when it may have changed: `faro app-key set` or `clear` (which
/// activates `app.reload-backend` on the running instance), a backend setting changed with `gsettings`, or
/// Reintentar (the user may have fixed a refused key). When the URL, the tables or the app key differ from what the
/// window runs with, the outbox deliverer and the catalog service carry on with the new configuration: rows
/// waiting on a refused key are tried again at once, and new rows are queued for the new backend.
@MainActor
final class BackendReload {
    private var current: BackendConfiguration?
    /// Whether `reload` has applied a configuration (read with the key) since the start.
    private var reloaded = false
    private let stores: DatabaseStores
    private let catalog: CatalogService
    private let databasePath: String
    private let syncSettings: CatalogSyncSettings
    private let resolve: () throws -> BackendConfiguration?
    /// Whether the stored key could be read, at start and at the last reload (the window's line).
    let appKeyStatus = AppKeyStatus()

    init(
        current: BackendConfiguration?, stores: DatabaseStores, catalog: CatalogService, databasePath: String,
        syncSettings: CatalogSyncSettings, resolve: @escaping () throws -> BackendConfiguration?
    ) {
        self.current = current
        self.stores = stores
        self.catalog = catalog
        self.databasePath = databasePath
        self.syncSettings = syncSettings
        self.resolve = resolve
    }

    /// The stored app key, read at start off the main thread (`AppKeyReading`): the outbox starts with it. A
    /// keyring that cannot be read is said on stderr and on the window's line (`appKeyStatus`), and the backend is
    /// used without a key; unlocking the keyring and pressing Reintentar, or `faro app-key set`, reads it again.
    func appKeyRead(_ read: Result<String?, AppKeyError>) {
        // A reload that came first already read the key, with whatever else changed since the start.
        guard !reloaded, var configuration = current else { return }
        switch read {
        case .success(let key):
            configuration.appKey = key
            appKeyStatus.problem = nil
        case .failure(let error):
            Output.error("faro: cannot read the app key: \(error) (FARO_APP_KEY overrides it)")
            appKeyStatus.problem = Self.problem(error)
        }
        current = configuration
        deliver(with: configuration)
    }

    /// Reads the configuration again and applies it if it changed; returns whether it did. A configuration that
    /// cannot be read (the keyring locked, a bad URL) leaves the running one as it is, with the reason on stderr.
    @discardableResult
    func reload() -> Bool {
        let fresh: BackendConfiguration?
        do { fresh = try resolve() } catch {
            Output.error("faro: the backend settings could not be read again: \(error)")
            if let key = (error as? CommandFailure)?.appKey { appKeyStatus.problem = Self.problem(key) }
            return false
        }
        appKeyStatus.problem = nil
        guard fresh != current else { return false }
        current = fresh
        reloaded = true
        stores.backend = fresh?.baseURL
        if let fresh { deliver(with: fresh) }
        catalog.configurationChanged(
            makeSyncer: GUICommand.syncerFactory(fresh, databasePath: databasePath, settings: syncSettings))
        return true
    }

    private static func problem(_ error: AppKeyError) -> AppKeyProblem {
        if case .keyringLocked = error { return .keyringLocked }
        return .unreadable
    }

    /// The outbox delivers with `configuration` from now on: the running deliverer takes it (and tries rows
    /// waiting on a refused key again), or one is started.
    private func deliver(with configuration: BackendConfiguration) {
        if let deliverer = stores.deliverer {
            deliverer.updateConfiguration(configuration)
        } else {
            let deliverer = OutboxDeliverer(databasePath: databasePath, configuration: configuration)
            deliverer.start()
            stores.deliverer = deliverer
        }
    }
}
