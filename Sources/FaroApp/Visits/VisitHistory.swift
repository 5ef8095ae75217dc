import FaroCore

/// The stored visits, for the "Lugares visitados" page.
@MainActor
public protocol VisitHistory: AnyObject {
    /// The newest visits first, at most `limit`.
    func visits(limit: Int) -> [VisitEntry]
    /// The newest visits whose place matches `query` (docs/beacons.md, "Search"), at most `limit`.
    func visits(matching query: SearchQuery, limit: Int) -> [VisitEntry]
    /// "Borrar historial".
    func clearVisits() throws(ProfileStoreError)
}

extension VisitHistory {
    /// Searches among the latest `limit` visits only: a history that can search all of it says so itself.
    public func visits(matching query: SearchQuery, limit: Int) -> [VisitEntry] {
        SearchResults.visits(visits(limit: limit), matching: query)
    }
}
