import FaroCore

/// What the lists' search bar filters by, beside the beacon list's own (`BeaconListBuilder`): Guardados and
/// "Lugares visitados" keep the entries that match before any row is made (docs/beacons.md, "Search").
public enum SearchResults {
    /// The empty list's title and detail while a search finds nothing ("Sin resultados para «nandu»").
    public static func emptyTexts(_ query: SearchQuery, localize: Localizer) -> (title: String, detail: String) {
        (
            localize.format("No results for “%@”", query.text),
            localize("Search by a place's name, its business, or a beacon's UUID or major/minor.")
        )
    }

    /// The saved pages whose title or business contain `query`, in their order.
    public static func saved(_ entries: [SavedSiteSummary], matching query: SearchQuery) -> [SavedSiteSummary] {
        query.isEmpty ? entries : entries.filter { query.matches([$0.title, $0.business]) }
    }

    /// The visits whose place's title, business or beacon (UUID, "major/minor") contain `query`, in their order.
    public static func visits(_ visits: [VisitEntry], matching query: SearchQuery) -> [VisitEntry] {
        guard !query.isEmpty else { return visits }
        return visits.filter { matches($0.place, query) }
    }

    /// The ids of the places, among `names` (a place's id and a name it was visited under), that `query` finds: a
    /// search of the whole history reads only their visits.
    public static func placeIDs(_ names: [(id: String, place: CatalogPlace)], matching query: SearchQuery) -> [String] {
        var ids: [String] = []
        var seen = Set<String>()
        for (id, place) in names where !seen.contains(id) && matches(place, query) {
            seen.insert(id)
            ids.append(id)
        }
        return ids
    }

    static func matches(_ place: CatalogPlace, _ query: SearchQuery) -> Bool {
        query.matches([place.titulo, place.cliente] + place.identity.searchFields)
    }
}
