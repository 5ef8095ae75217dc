import Dispatch
import FaroApp
import FaroCore
import FaroNet
import FaroStore
import FoundationEssentials
import Glibc

/// Faro's one SQLite database behind FaroApp's ports: contact details, the outbox, per-site flags and settings.
/// The window uses it on the main thread only (each write is a short local transaction); delivery runs on the
/// deliverer's own thread with its own connection. `faro register` uses it from the terminal.
final class DatabaseStores: ContactProfileStore, OutboxWriter, SiteFlags, SettingsStore, OutboxMonitor,
    @unchecked Sendable
{
    let database: FaroDatabase
    /// Woken after each commit so it is delivered at once when the backend is reachable.
    var deliverer: OutboxDeliverer?
    /// The backend new rows are queued for (PRODUCT.md §11: each row goes only there); nil until one is configured.
    var backend: String?

    init(database: FaroDatabase) { self.database = database }

    func loadContactDetails() throws(StorageFailure) -> ContactDetails? {
        do { return try database.contactProfile.load() } catch { throw StorageFailure(error.description) }
    }

    func saveContactDetails(_ details: ContactDetails, at time: Double) throws(StorageFailure) {
        do { try database.contactProfile.save(details, now: time) } catch { throw StorageFailure(error.description) }
    }

    func commit(_ submission: OutboxSubmission, at time: Double, marking site: String?) throws(StorageFailure)
        -> String
    {
        let row: OutboxRow
        do {
            row = try database.outbox.submit(submission, now: time, marking: site, backend: backend)
        } catch {
            throw StorageFailure(error.description)
        }
        deliverer?.wake()
        return row.id
    }

    func contactSent(to url: String) throws(StorageFailure) -> Bool {
        do { return try database.siteState.state(url: url).contactSentAt != nil } catch {
            throw StorageFailure(error.description)
        }
    }

    func rating(of url: String) throws(StorageFailure) -> Int? {
        do { return try database.siteState.state(url: url).rating } catch { throw StorageFailure(error.description) }
    }

    func string(_ key: String) -> String? { (try? database.settings.value(key)) ?? nil }

    func setString(_ key: String, _ value: String?) { try? database.settings.set(key, value) }

    var counts: (pending: Int, failed: Int)? {
        guard let counts = deliverer?.status?.counts else { return nil }
        return (counts.pending, counts.failed)
    }

    func retryNow() { deliverer?.retryNow() }
}

/// The catalog through the backend, cached in SQLite: a cached answer comes at once (offline too), the backend
/// is asked on a worker thread and refreshes the cache.
final class BackendCatalog: CatalogProvider, @unchecked Sendable {
    private let configuration: BackendConfiguration?
    private let databasePath: String
    private let queue = DispatchQueue(label: "faro.catalog")
    /// The catalog's own connection, opened on first use and only ever touched on `queue`.
    private var database: FaroDatabase?
    private var client: TablesClient?
    private let main: @Sendable (@escaping @Sendable @MainActor () -> Void) -> Void

    init(
        configuration: BackendConfiguration?, databasePath: String,
        main: @escaping @Sendable (@escaping @Sendable @MainActor () -> Void) -> Void
    ) {
        self.configuration = configuration
        self.databasePath = databasePath
        self.main = main
    }

    func lookup(_ identity: BeaconIdentity, completion: @escaping @MainActor @Sendable (CatalogPlace?) -> Void) {
        let path = databasePath
        let configuration = configuration
        let main = main
        queue.async { [self] in
            if database == nil { database = try? FaroDatabase(path: path, durable: false) }
            if client == nil, let configuration { client = try? TablesClient(configuration: configuration) }
            guard let source = configuration?.catalogSource else { return }
            if let cached = try? database?.catalog.place(source: source, for: identity) {
                main { completion(cached) }
            }
            guard let client, let places = try? client.catalog(major: Int(identity.major), minor: Int(identity.minor))
            else { return }
            try? database?.catalog.storeLookup(
                major: identity.major, minor: identity.minor, places: places, source: source)
            let place = CatalogIndex(places).place(for: identity)
            main { completion(place) }
        }
    }
}
