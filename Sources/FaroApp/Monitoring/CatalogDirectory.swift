import FaroCore

/// Whether Faro can reach its backend, as the window's one calm line shows it, and "try again now".
@MainActor
public protocol BackendConnection: AnyObject {
    var reachability: CatalogReachability { get }
    /// Called on the main thread after `reachability` changed.
    var onReachabilityChange: (@MainActor () -> Void)? { get set }
    /// Try the backend now (the line's Reintentar, or the network coming back).
    func reconnect()
}

/// The window's catalog: a `PlaceDirectory` and `BackendConnection` over the `CatalogService`, which keeps the
/// local catalog in sync on its own thread. The service's updates arrive here on the main thread (`receive`).
@MainActor
public final class CatalogDirectory: PlaceDirectory, BackendConnection {
    public private(set) var index = CatalogIndex()
    public private(set) var reachability = CatalogReachability.unknown
    public var onChange: (@MainActor () -> Void)?
    public var onReachabilityChange: (@MainActor () -> Void)?
    private var service: CatalogService?

    public init() {}

    /// The service this directory asks (set once, before it starts).
    public func attach(_ service: CatalogService) { self.service = service }

    /// One update of the service, on the main thread.
    public func receive(_ update: CatalogServiceUpdate) {
        switch update {
        case .catalogChanged(let index):
            guard index != self.index else { return }
            self.index = index
            onChange?()
        case .reachability(let reachability):
            guard reachability != self.reachability else { return }
            self.reachability = reachability
            onReachabilityChange?()
        }
    }

    public func sighted(unknown identity: BeaconIdentity) { service?.unknownBeaconSighted(identity) }

    public func reconnect() { service?.networkAvailable() }
}

/// The window's line when the backend cannot be reached or refuses the app key: one calm sentence, nil when all is
/// well (docs/outbox.md, docs/backend.md). Outbox delivery problems count too, since they have the same causes. A key
/// that could not be read comes first: it is why the backend would refuse.
public func backendProblemText(
    _ reachability: CatalogReachability, outbox: OutboxState?, appKey: AppKeyProblem? = nil, localize: Localizer
) -> String? {
    switch appKey {
    case .keyringLocked?:
        return localize("The keyring that keeps the app key is locked; unlock it and press Retry.")
    case .unreadable?:
        return localize("The app key could not be read; submissions wait until it can.")
    case nil: break
    }
    if case .appKeyRefused = reachability {
        return localize("The server refused the app key; submissions wait until it is set.")
    }
    if outbox?.keyRefused != nil {
        return localize("The server refused the app key; submissions wait until it is set.")
    }
    if case .unreachable = reachability {
        return localize("No connection to the server; the names will arrive when it reconnects.")
    }
    if outbox?.unreachable != nil {
        return localize("No connection to the server; submissions are sent when it reconnects.")
    }
    return nil
}
