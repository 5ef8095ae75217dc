import FaroCore

/// A microsite ready to show: its address without the device id, the readable document, and the images it
/// uses by source URL (fetched with the page, or read from a saved archive).
public struct LoadedSite: Sendable {
    public var url: String
    public var document: ReadableDocument
    public var images: [String: [UInt8]]

    public init(url: String, document: ReadableDocument, images: [String: [UInt8]]) {
        self.url = url
        self.document = document
        self.images = images
    }
}

/// One entry of Guardados, as the list shows it.
public struct SavedSiteSummary: Equatable, Sendable {
    public var id: Int64
    public var url: String
    public var title: String
    public var business: String
    /// Seconds since 1970.
    public var savedAt: Double

    public init(id: Int64, url: String, title: String, business: String, savedAt: Double) {
        self.id = id
        self.url = url
        self.title = title
        self.business = business
        self.savedAt = savedAt
    }
}

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

/// Why a site action failed, in words for the user.
public struct SiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
