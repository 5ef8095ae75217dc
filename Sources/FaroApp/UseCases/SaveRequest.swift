import FaroCore

/// What "Guardar" asks the archiver for: the page, the title to use when the page has none, the business it
/// belongs to, and when it was saved (seconds since 1970).
public struct SaveRequest: Sendable, Equatable {
    public var url: String
    public var fallbackTitle: String
    public var business: String
    public var savedAt: Double

    public init(url: String, fallbackTitle: String, business: String, savedAt: Double) {
        self.url = url
        self.fallbackTitle = fallbackTitle
        self.business = business
        self.savedAt = savedAt
    }
}
