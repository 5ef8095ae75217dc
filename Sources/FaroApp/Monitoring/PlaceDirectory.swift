import FaroCore

/// The catalogued places Faro knows, as monitoring sees them: the current catalog (it becomes the session's
/// regions and names rows), and a trigger for a beacon it may not know. Lives on the main thread.
@MainActor
public protocol PlaceDirectory: AnyObject {
    /// Every known place.
    var index: CatalogIndex { get }
    /// A beacon without a place was sighted: the directory may ask the backend about it (rate-limited).
    func sighted(unknown identity: BeaconIdentity)
    /// Called on the main thread after `index` changed.
    var onChange: (@MainActor () -> Void)? { get set }
}
