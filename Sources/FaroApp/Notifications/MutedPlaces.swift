import FaroCore

/// Where muted places are kept (the profile database; docs/notifications.md). Main thread only.
@MainActor
public protocol MutedPlaceStore: AnyObject {
    /// Every muted place, the most recently muted first.
    func mutedPlaces() throws(ProfileStoreError) -> [MutedPlace]
    /// Mutes a place (muting it again keeps it once, with the new time and names).
    func mute(_ place: MutedPlace) throws(ProfileStoreError)
    /// Un-mutes the place kept by `key`; returns whether it was muted.
    @discardableResult func unmute(key: String) throws(ProfileStoreError) -> Bool
}

/// The muted places as the window sees them: read through a `MutedPlaceStore`, changed by the notification's
/// "Silenciar este lugar", the site page and Preferences, and observed by whatever shows them, so every view
/// follows a change made in another.
@MainActor
public final class MutedPlaces {
    private let store: any MutedPlaceStore
    private let clock: @Sendable () -> Double
    private var observers: [Int: @MainActor () -> Void] = [:]
    private var nextObserver = 0

    public init(store: any MutedPlaceStore, clock: @escaping @Sendable () -> Double) {
        self.store = store
        self.clock = clock
    }

    /// Every muted place, the most recently muted first (empty when the store cannot be read).
    public var all: [MutedPlace] { (try? store.mutedPlaces()) ?? [] }

    /// Read from the store each time: `faro muted clear` in a terminal applies to the next entry at once.
    public func isMuted(_ place: CatalogPlace) -> Bool {
        let key = MutedPlace.key(for: place)
        return all.contains { $0.key == key }
    }

    public func mute(_ place: CatalogPlace) throws(ProfileStoreError) {
        try store.mute(MutedPlace(place, at: clock()))
        changed()
    }

    public func unmute(key: String) throws(ProfileStoreError) {
        try store.unmute(key: key)
        changed()
    }

    public func unmute(_ place: CatalogPlace) throws(ProfileStoreError) {
        try unmute(key: MutedPlace.key(for: place))
    }

    /// Reads the store again (another process, `faro muted clear`, may have changed it) and tells the observers.
    public func reload() { changed() }

    /// Calls `body` after every change, until the returned observation is cancelled or goes away.
    public func observe(_ body: @escaping @MainActor () -> Void) -> MutedPlacesObservation {
        let id = nextObserver
        nextObserver += 1
        observers[id] = body
        return MutedPlacesObservation { [weak self] in
            MainActor.assumeIsolated { _ = self?.observers.removeValue(forKey: id) }
        }
    }

    private func changed() {
        for body in observers.values { body() }
    }
}

/// Keeps an observation of `MutedPlaces` alive: the calls stop when it is cancelled or goes away.
public final class MutedPlacesObservation {
    private var stop: (() -> Void)?

    init(stop: @escaping () -> Void) { self.stop = stop }

    public func cancel() {
        stop?()
        stop = nil
    }

    deinit { stop?() }
}
