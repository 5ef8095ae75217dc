/// How often and how eagerly Faro syncs its local catalog (docs/backend.md). Every value has a default
/// that fits a laptop; the environment can change them (see `init(environment:)`).
public struct CatalogSyncSettings: Sendable, Equatable {
    /// Seconds between periodic pulls unless the `catalog-refresh-interval` setting says otherwise.
    public static let defaultPeriod: Double = 900
    /// Seconds between periodic pulls.
    public var period: Double = defaultPeriod
    /// Rows asked per page (`$top`; the protocol's default page is 50, its maximum 1000).
    public var pageSize = 50
    /// Backoff while the backend cannot be reached: 5 s, 10 s … up to 5 minutes (network back retries at once).
    public var retry = BackoffSchedule(base: 5, cap: 300)
    /// A pull for an unknown beacon's sake comes at most this often (seconds) after the previous pull.
    public var sightingInterval: Double = 30
    /// After a pull that did not name a sighted beacon, its next sighting asks again only after 60 s, 120 s … (at
    /// most one period).
    public var unknownBeaconBackoff = BackoffSchedule(base: 60, cap: 900)
    /// Unknown beacons remembered for asking again, at most (the oldest is forgotten first).
    public var maxUnknownBeacons = 256
    /// Identities asked per fallback lookup round (when the backend refuses listing).
    public var lookupBatch = 20
    /// Pages one pull asks for at most; the rest waits for the next pull, from where this one stopped.
    public var maxPagesPerPull = 10_000

    public init() {}

    /// The defaults, with `FARO_CATALOG_SYNC_MINUTES` (period), `FARO_CATALOG_PAGE_SIZE` (1…1000) and
    /// `FARO_CATALOG_SIGHTING_SECONDS` taken from `environment` when they hold valid numbers.
    public init(environment: [String: String]) {
        self.init()
        if let minutes = environment["FARO_CATALOG_SYNC_MINUTES"].flatMap(Double.init), minutes >= 1,
            minutes <= 24 * 60
        {
            period = minutes * 60
            unknownBeaconBackoff = BackoffSchedule(base: min(60, period), cap: period)
        }
        if let size = environment["FARO_CATALOG_PAGE_SIZE"].flatMap(Int.init), (1...1000).contains(size) {
            pageSize = size
        }
        if let seconds = environment["FARO_CATALOG_SIGHTING_SECONDS"].flatMap(Double.init), seconds >= 0,
            seconds <= 3600
        {
            sightingInterval = seconds
        }
    }
}
