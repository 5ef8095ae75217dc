/// The stored visits, for the "Lugares visitados" page.
@MainActor
public protocol VisitHistory: AnyObject {
    /// The newest visits first, at most `limit`.
    func visits(limit: Int) -> [VisitEntry]
    /// "Borrar historial".
    func clearVisits() throws(ProfileStoreError)
}
