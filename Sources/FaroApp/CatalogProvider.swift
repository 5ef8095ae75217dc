import FaroCore

/// Looks beacons up in the backend's catalog (cached locally). Answers arrive on the main thread.
public protocol CatalogProvider: AnyObject {
    /// Calls `completion` with the place, or nil when the catalog has none for this beacon (or cannot be reached
    /// and nothing is cached).
    func lookup(_ identity: BeaconIdentity, completion: @escaping @MainActor @Sendable (CatalogPlace?) -> Void)
}
