import Dispatch
import FaroApp
import FaroCore
import FaroNet
import FaroStore
import FoundationEssentials
import Glibc

/// The GUI's stores over Faro's one SQLite database: contact details, settings and the outbox. Used on the main
/// thread only (each SQLite write is a short local transaction); delivery runs on the deliverer's own thread.
final class DatabaseStores: ContactDetailsStore, SettingsStore, RegistrationOutbox, OutboxMonitor {
    let database: FaroDatabase
    /// Woken after each submission so it is delivered at once when the backend is reachable.
    var deliverer: OutboxDeliverer?

    init(database: FaroDatabase) { self.database = database }

    func loadContactDetails() throws -> ContactDetails? { try database.contactProfile.load() }

    func saveContactDetails(_ details: ContactDetails) throws {
        try database.contactProfile.save(details, now: Date().timeIntervalSince1970)
    }

    func string(_ key: String) -> String? { (try? database.settings.value(key)) ?? nil }

    func setString(_ key: String, _ value: String?) { try? database.settings.set(key, value) }

    var counts: (pending: Int, failed: Int)? {
        guard let counts = deliverer?.status?.counts else { return nil }
        return (counts.pending, counts.failed)
    }

    func retryNow() { deliverer?.retryNow() }

    func submit(_ registration: BusinessRegistration) throws -> String {
        let row = try database.outbox.submit(.interested(registration), now: Date().timeIntervalSince1970)
        deliverer?.wake()
        return row.id
    }
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
