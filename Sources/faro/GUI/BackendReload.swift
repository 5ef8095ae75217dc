import FaroApp
import FaroCore
import FaroNet
import FaroSettings
import FaroUI
import FoundationEssentials

/// The window's backend configuration, read again when it may have changed: `faro app-key set` or `clear` (which
/// activates `app.reload-backend` on the running instance), a backend setting changed with `gsettings`, or
/// Reintentar (the user may have fixed a refused key or unlocked the keyring). When the URL, the tables or the app
/// key differ from what the window runs with, the outbox deliverer and the catalog service carry on with the new
/// configuration: rows waiting on a refused key are tried again at once, and new rows are queued for the new backend.
///
/// The URL and the tables are read on the main thread (the settings and Faro's database, both local). The app key is
/// read on a thread of its own (`AppKeyReading`), as at start: the Secret Service is another process on the bus, and
/// one that hangs would otherwise hold the window until D-Bus gives up on it, 25 s later.
@MainActor
final class BackendReload {
    private var current: BackendConfiguration?
    /// The app key the window talks to its backend with (what "Probar conexión" sends).
    var appKey: String? { current?.appKey }
    /// Whether a reload has applied its configuration since the start: the start's key read, if it comes after,
    /// is older than what the reload read.
    private var reloaded = false
    private let outbox: OutboxAdapter
    private let catalog: CatalogService
    private let databasePath: String
    private let syncSettings: CatalogSyncSettings
    /// The URL and the tables, with `$FARO_APP_KEY` when it is set; the stored key is not read here.
    private let resolve: () throws -> BackendConfiguration?
    /// A read of the stored key, nil when the window uses none (`faro --demo`).
    private let keyReading: (() -> AppKeyReading)?
    /// The last reload's configuration while its key is being read.
    private var awaitingKey: BackendConfiguration?
    private var keyReadRunning = false
    /// A reload came while the key was being read: read it again once that read is done (the user may have
    /// unlocked the keyring in between).
    private var readAgain = false
    /// Whether the stored key could be read, at start and at the last reload (the window's line).
    let appKeyStatus = AppKeyStatus()

    init(
        current: BackendConfiguration?, outbox: OutboxAdapter, catalog: CatalogService, databasePath: String,
        syncSettings: CatalogSyncSettings, resolve: @escaping () throws -> BackendConfiguration?,
        keyReading: (() -> AppKeyReading)?
    ) {
        self.current = current
        self.outbox = outbox
        self.catalog = catalog
        self.databasePath = databasePath
        self.syncSettings = syncSettings
        self.resolve = resolve
        self.keyReading = keyReading
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
            keyUnread(error)
        }
        current = configuration
        deliver(with: configuration)
    }

    /// Reads the configuration again; what changed is applied once the stored key is read too (at once when no
    /// key is read). A configuration that cannot be read (the keyring locked, a bad URL) leaves the running one as
    /// it is, with the reason on stderr and, for the key, on the window's line.
    func reload() {
        let fresh: BackendConfiguration?
        do { fresh = try resolve() } catch {
            Output.error("faro: the backend settings could not be read again: \(error)")
            return
        }
        guard let fresh, fresh.appKey == nil, keyReading != nil else {
            // Nothing to read (no backend, or $FARO_APP_KEY): a read under way is for a configuration now gone.
            awaitingKey = nil
            readAgain = false
            appKeyStatus.problem = nil
            return apply(fresh)
        }
        awaitingKey = fresh
        if keyReadRunning {
            readAgain = true
        } else {
            readKey()
        }
    }

    private func readKey() {
        guard let keyReading else { return }
        keyReadRunning = true
        let reading = keyReading()
        reading.whenRead { read in FaroApplication.performOnMain { self.keyRead(read) } }
        reading.start()
    }

    private func keyRead(_ read: Result<String?, AppKeyError>) {
        keyReadRunning = false
        if readAgain {
            readAgain = false
            return readKey()
        }
        guard var configuration = awaitingKey else { return }
        awaitingKey = nil
        switch read {
        case .success(let key):
            appKeyStatus.problem = nil
            configuration.appKey = key
            apply(configuration)
        case .failure(let error):
            keyUnread(error)
        }
    }

    /// Carries on with `fresh` if it differs from the running configuration.
    private func apply(_ fresh: BackendConfiguration?) {
        reloaded = true
        guard fresh != current else { return }
        current = fresh
        outbox.backend = fresh?.baseURL
        if let fresh { deliver(with: fresh) }
        catalog.configurationChanged(
            makeSyncer: GUICommand.syncerFactory(fresh, databasePath: databasePath, settings: syncSettings))
    }

    /// Says why the stored key could not be read, on stderr and on the window's line.
    private func keyUnread(_ error: AppKeyError) {
        Output.error("faro: cannot read the app key: \(error) (FARO_APP_KEY overrides it)")
        if case .keyringLocked = error {
            appKeyStatus.problem = .keyringLocked
        } else {
            appKeyStatus.problem = .unreadable
        }
    }

    /// The outbox delivers with `configuration` from now on: the running deliverer takes it (and tries rows
    /// waiting on a refused key again), or one is started.
    private func deliver(with configuration: BackendConfiguration) {
        if let deliverer = outbox.deliverer {
            deliverer.updateConfiguration(configuration)
        } else {
            let deliverer = WindowOutbox.deliverer(
                databasePath: databasePath, configuration: configuration,
                environment: ProcessInfo.processInfo.environment)
            deliverer.start()
            outbox.deliverer = deliverer
        }
    }
}
