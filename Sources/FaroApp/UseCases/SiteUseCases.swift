import FaroCore

/// How a microsite load ended, as the content view shows it: the page, or why not and whether Guardados has a
/// copy to offer instead (never stale content silently, docs/content-view.md).
public enum SiteLoadOutcome: Sendable {
    case loaded(LoadedSite)
    case failed(SiteError, savedCopy: Int64?)
}

/// Opening a place's microsite: always a fresh load (no cache, fresh cookies, the device id where it may go); on
/// failure, the newest saved copy of the same page is offered.
@MainActor
public struct OpenSite {
    private let services: any SiteServices

    public init(services: any SiteServices) { self.services = services }

    /// Starts the load; `completion` runs on the main thread. Cancel the returned load when the user moves on.
    public func callAsFunction(
        _ place: CatalogPlace, progress: @escaping @MainActor @Sendable (Double?) -> Void,
        completion: @escaping @MainActor (SiteLoadOutcome) -> Void
    ) -> any SiteLoad {
        let services = services
        return services.load(place.url, progress: progress) { result in
            switch result {
            case .success(let site): completion(.loaded(site))
            case .failure(let error): completion(.failed(error, savedCopy: services.savedCopy(of: place.url)))
            }
        }
    }
}

/// "Guardar" (docs/guardados.md): the page the user is viewing, with its images and stylesheets, archived into
/// Guardados under its own title (or the catalog's, when the page has none) and the place's business, stamped
/// with the injected clock.
@MainActor
public struct SavePage {
    private let services: any SiteServices
    private let clock: @Sendable () -> Double

    public init(services: any SiteServices, clock: @escaping @Sendable () -> Double) {
        self.services = services
        self.clock = clock
    }

    /// Saves `place`'s page; `completion` runs on the main thread with the saved entry's id.
    public func callAsFunction(
        _ place: CatalogPlace, completion: @escaping @MainActor @Sendable (Result<Int64, SiteError>) -> Void
    ) {
        let request = SaveRequest(
            url: place.url, fallbackTitle: place.titulo, business: place.cliente, savedAt: clock())
        services.save(request, completion: completion)
    }
}
