/// What the catalog service asks of the network and the local store, on its worker thread (FaroNet's
/// `CatalogSync` is the real one; tests pass their own). Blocking; one instance per thread.
public protocol CatalogSyncing: AnyObject {
    /// The local catalog as stored (what was synced before, available offline).
    func localPlaces() -> [CatalogPlace]
    /// One incremental pull to the end.
    func pull() -> CatalogAttemptOutcome
    /// The fallback: look these beacons up by major and minor (and UUID), storing what is found.
    func lookUp(_ identities: [BeaconIdentity]) -> CatalogAttemptOutcome
    /// Nothing is due for a while: close what is kept open for the next request (a kept-alive connection).
    func closeConnections()
}
