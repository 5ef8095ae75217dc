import FaroCore

/// The catalogued places Faro knows, as monitoring sees them: the current table (it becomes the session's
/// regions and names rows), and a trigger for a beacon it may not know. Lives on the main thread.
@MainActor
public protocol PlaceDirectory: AnyObject {
    /// Every known place, by beacon identity.
    var places: [BeaconIdentity: CatalogPlace] { get }
    /// A beacon without a place was sighted: the directory may ask the backend about it (rate-limited).
    func sighted(unknown identity: BeaconIdentity)
    /// Called on the main thread after `places` changed.
    var onChange: (@MainActor () -> Void)? { get set }
}

/// A `PlaceDirectory` over a `CatalogProvider`'s one-beacon lookups: each identity is asked once; its answer is
/// kept for the session.
@MainActor
public final class LookupPlaceDirectory: PlaceDirectory {
    public private(set) var places: [BeaconIdentity: CatalogPlace] = [:]
    public var onChange: (@MainActor () -> Void)?
    private let provider: (any CatalogProvider)?
    private var asked = Set<BeaconIdentity>()

    public init(provider: (any CatalogProvider)?) { self.provider = provider }

    public func sighted(unknown identity: BeaconIdentity) {
        guard let provider, asked.insert(identity).inserted else { return }
        provider.lookup(identity) { [weak self] place in
            guard let self, let place, self.places[identity] != place else { return }
            self.places[identity] = place
            self.onChange?()
        }
    }
}
