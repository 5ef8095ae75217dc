import FaroCore

/// A load in progress that the content view can abandon when the user moves on.
public protocol SiteLoad: AnyObject {
    func cancel()
}

/// What the content view does with the network and the store. Completions arrive on the main thread.
public protocol SiteServices: AnyObject {
    /// Loads `place`'s microsite fresh (no cache, fresh cookies, device id added); `progress` is 0…1 or nil.
    func load(
        _ url: String, progress: @escaping @MainActor @Sendable (Double?) -> Void,
        completion: @escaping @MainActor @Sendable (Result<LoadedSite, SiteError>) -> Void
    ) -> any SiteLoad
    /// "Guardar": the page and its resources into an MHT archive in Guardados (off the main thread); completes
    /// with the saved entry's id.
    func save(_ request: SaveRequest, completion: @escaping @MainActor @Sendable (Result<Int64, SiteError>) -> Void)
    func savedSites() -> [SavedSiteSummary]
    /// Opens a saved page with no network access at all, off the main thread (reading a large archive and its
    /// HTML must not freeze the window); `completion` runs on the main thread.
    func openSaved(_ id: Int64, completion: @escaping @MainActor @Sendable (Result<LoadedSite, SiteError>) -> Void)
    func deleteSaved(_ id: Int64) throws(SiteError)
    func exportSaved(_ id: Int64, to path: String) throws(SiteError)
    /// The newest saved copy of `url`, to offer when a load fails.
    func savedCopy(of url: String) -> Int64?
    /// The QR code of a URL, for phones to pick it up.
    func qrCode(for url: String) -> QRMatrix?
}
