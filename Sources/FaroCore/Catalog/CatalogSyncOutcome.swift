/// What one incremental pull changed locally (what `faro catalog sync` prints).
public struct CatalogPullReport: Equatable, Sendable {
    /// Rows new to the local catalog.
    public var added = 0
    /// Rows the local catalog had and replaced.
    public var updated = 0
    /// Rows removed because the server marks them deleted.
    public var deleted = 0
    /// Rows the server sent that Faro could not use (kept out, with the first reason in `skippedReason`).
    public var skipped = 0
    public var skippedReason: String?
    /// Requests made (the last one is the empty page that ends the pull).
    public var pages = 0
    /// Bytes of the response bodies.
    public var bytes = 0
    /// Rows received, whatever they meant.
    public var rows = 0
    /// The protocol generation the pull spoke in the end (nil before its first request).
    public var generation: BackendProtocol?
    /// Pages of a 3.0.0 `nextLink` that did not start where the page before ended (rows moved during the pull),
    /// asked for again from the cursor.
    public var restarts = 0

    public init() {}

    /// Whether the local catalog changed.
    public var changedAnything: Bool { added + updated + deleted > 0 }
}

/// How one catalog attempt (a pull or a round of lookups) ended, as the scheduler needs to know it.
public enum CatalogAttemptOutcome: Equatable, Sendable {
    /// The pull went through to its last page.
    case pulled(CatalogPullReport)
    /// Lookups by major/minor answered: these identities have a place now, these have none.
    case lookedUp(found: [BeaconIdentity], missing: [BeaconIdentity])
    /// The backend refuses listing the catalog (HTTP 403 or 405 on the list): look beacons up one by one.
    case listingRefused(status: Int)
    /// The backend refused the app key (HTTP 401, or 403 on a lookup): wait for the configuration to change.
    case keyRefused(String)
    /// No usable answer (connection refused, timeout, 5xx, a broken answer): retry with backoff.
    case unreachable(String)
    /// The backend answered, but not as a Faro backend would (no such table, a redirect): retry at the next period.
    case misconfigured(String)
}

/// Whether the backend's catalog can be reached, for the window's one calm line.
public enum CatalogReachability: Equatable, Sendable {
    /// Nothing tried yet.
    case unknown
    case reachable
    /// The last attempt failed; `reason` says why in words a user can act on.
    case unreachable(reason: String)
    /// The backend refused the app key; nothing is retried until the configuration changes (or a period passes).
    case appKeyRefused(reason: String)
}

extension CatalogSyncing {
    public func closeConnections() {}
}
