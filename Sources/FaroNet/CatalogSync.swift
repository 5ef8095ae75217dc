import FaroCore
import FaroStore

/// Why a catalog pull or lookup stopped, in words a user can act on.
public enum CatalogSyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The backend refuses listing the catalog table (403/405): only lookups by major/minor work.
    case listingRefused(status: Int)
    /// The backend refused the app key (401; or 403 on a lookup).
    case keyRefused(status: Int, message: String)
    /// The backend has no such table (404).
    case tableNotFound(String)
    /// No usable answer: refused, timed out, 5xx, a captive portal's page…
    case unreachable(TablesError)
    /// The backend answered, but not as a tables backend must (a redirect, a bad filter, unsorted pages…).
    case unusableAnswer(String)
    /// The local database failed.
    case store(StoreError)

    public var description: String {
        switch self {
        case .listingRefused(let status):
            return "the backend refuses listing the catalog (HTTP \(status)); Faro looks beacons up one by one instead"
        case .keyRefused(let status, let message):
            return "the backend refused the app key (HTTP \(status)\(message.isEmpty ? "" : ": \(message)")); "
                + "check the app key setting"
        case .tableNotFound(let table): return "table \(table) not found on the backend (HTTP 404)"
        case .unreachable(let error): return error.description
        case .unusableAnswer(let reason): return reason
        case .store(let error): return error.description
        }
    }

    /// The same, as the scheduler sees it.
    public var outcome: CatalogAttemptOutcome {
        switch self {
        case .listingRefused(let status): return .listingRefused(status: status)
        case .keyRefused: return .keyRefused(description)
        case .unreachable: return .unreachable(description)
        case .tableNotFound, .unusableAnswer, .store: return .misconfigured(description)
        }
    }
}

/// The catalog's offline sync against one backend (docs/backend.md, docs/backend-protocols.md): incremental pulls of
/// table `beacons` into the local catalog, page by page with the delta token stored with each page, in either
/// protocol generation, and the lookup by major/minor where listing is refused. Blocking, with its own database
/// connection and libcurl handle: one per thread.
public final class CatalogSync: CatalogSyncing {
    public let database: FaroDatabase
    public let client: TablesClient
    public let settings: CatalogSyncSettings
    private let clock: any OutboxClock

    public init(
        database: FaroDatabase, client: TablesClient, settings: CatalogSyncSettings = CatalogSyncSettings(),
        clock: any OutboxClock = SystemOutboxClock()
    ) {
        self.database = database
        self.client = client
        self.settings = settings
        self.clock = clock
    }

    /// Opens a connection to the database at `path` (not durable: the catalog is a copy of the backend's) and a
    /// client for `configuration`.
    public convenience init(
        databasePath: String, configuration: BackendConfiguration,
        settings: CatalogSyncSettings = CatalogSyncSettings(),
        clock: any OutboxClock = SystemOutboxClock()
    ) throws(CatalogSyncError) {
        let database: FaroDatabase
        do { database = try FaroDatabase(path: databasePath, durable: false) } catch { throw .store(error) }
        let client: TablesClient
        do { client = try TablesClient(configuration: configuration) } catch { throw .unreachable(error) }
        self.init(database: database, client: client, settings: settings, clock: clock)
    }

    /// Where this backend's places and delta token are kept.
    public var source: String { client.configuration.catalogSource }

    /// One incremental pull to the end: pages after the stored delta token until the last one, each applied with
    /// the token in one transaction. An error keeps every page applied before it. With the `auto` setting the
    /// generation remembered for this backend is spoken (2.0.0 when none is), and an answer of the other shape
    /// starts the pull again in that one (remembered from then on).
    public func run() throws(CatalogSyncError) -> CatalogPullReport {
        let catalog = database.catalog
        let baseURL = client.configuration.baseURL
        var stored: BackendProtocol?
        do { stored = try catalog.generation(baseURL: baseURL) } catch { throw .store(error) }
        if client.generation == nil { client.remember(stored) }
        var report = CatalogPullReport()
        for _ in 0..<3 {  // bounded: the generation can change at most once each way
            let plan: CatalogPullPlan
            do {
                plan = CatalogPullPlan(
                    cursor: try catalog.cursor(source: source), pageSize: settings.pageSize,
                    maxPages: settings.maxPagesPerPull, generation: client.generation ?? .v2)
            } catch {
                throw .store(error)
            }
            report.generation = plan.generation
            // Pages are fetched and read on the puller's thread while the ones already read are stored here (each
            // with its delta token, in one transaction). Whatever ends the pull, the request in flight is waited for
            // before returning, so the client is never left in use.
            let puller = CatalogPagePuller(client: client, plan: plan)
            puller.start()
            defer { puller.finish() }
            var relearned = false
            while let item = puller.next() {
                let received: CatalogPagePuller.Received
                switch item {
                case .success(let page): received = page
                case .failure(.failed(let error)): throw error
                case .failure(.generationChanged(let generation)):
                    report.pages += 1
                    report.generation = generation
                    relearned = true
                    continue
                }
                report.pages += 1
                report.bytes += received.bytes
                report.rows += received.rows
                report.restarts += received.restarted ? 1 : 0
                do {
                    if client.configuration.backendProtocol == .auto, let generation = client.generation,
                        generation != stored
                    {
                        try catalog.setGeneration(generation, baseURL: baseURL, now: clock.now())
                        stored = generation
                    }
                    let applied = try catalog.apply(
                        received.page.changes, cursor: received.page.cursor, source: source,
                        finishedAt: received.page.isLast ? clock.now() : nil)
                    report.added += applied.added
                    report.updated += applied.updated
                    report.deleted += applied.deleted
                    report.skipped += applied.skipped
                    if report.skippedReason == nil { report.skippedReason = applied.skippedReason }
                } catch {
                    throw .store(error)
                }
            }
            if !relearned { return report }
        }
        throw .unusableAnswer("the backend keeps changing the shape of its answers between 2.0.0 and 3.0.0")
    }

    /// Looks one beacon up by major and minor and stores what the backend holds for them; returns its place.
    public func lookUp(_ identity: BeaconIdentity) throws(CatalogSyncError) -> CatalogPlace? {
        let places: [CatalogPlace]
        do { places = try client.catalog(major: Int(identity.major), minor: Int(identity.minor)) } catch {
            throw CatalogSync.classify(error, table: client.configuration.tables.catalog, listing: false)
        }
        do {
            try database.catalog.storeLookup(
                major: identity.major, minor: identity.minor, places: places, source: source)
        } catch {
            throw .store(error)
        }
        return CatalogIndex(places).place(for: identity)
    }

    // MARK: CatalogSyncing

    public func closeConnections() { client.closeConnection() }

    public func localPlaces() -> [CatalogPlace] { (try? database.catalog.places(source: source)) ?? [] }

    public func pull() -> CatalogAttemptOutcome {
        do { return .pulled(try run()) } catch { return error.outcome }
    }

    public func lookUp(_ identities: [BeaconIdentity]) -> CatalogAttemptOutcome {
        var found: [BeaconIdentity] = []
        var missing: [BeaconIdentity] = []
        for identity in identities {
            do {
                if try lookUp(identity) != nil { found.append(identity) } else { missing.append(identity) }
            } catch {
                // What was found so far is stored; the rest waits for the retry.
                return error.outcome
            }
        }
        return .lookedUp(found: found, missing: missing)
    }

    /// What a failed request means for the catalog. `listing` tells a list request (403/405: listing refused)
    /// from a lookup (403: the app key).
    static func classify(_ error: TablesError, table: String, listing: Bool) -> CatalogSyncError {
        switch error {
        case .http(let status, let message):
            switch status {
            case 401: return .keyRefused(status: status, message: message)
            case 403 where listing, 405 where listing: return .listingRefused(status: status)
            case 403: return .keyRefused(status: status, message: message)
            case 404: return .tableNotFound(table)
            case 408, 429, 500..<600: return .unreachable(error)
            default: return .unusableAnswer(error.description)
            }
        case .redirected, .responseTooLarge, .unexpectedShape, .protocolMismatch:
            return .unusableAnswer(error.description)
        case .transport, .unexpectedContentType, .malformedResponse: return .unreachable(error)
        }
    }
}
