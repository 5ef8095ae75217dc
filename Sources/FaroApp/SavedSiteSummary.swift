import FaroCore

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
