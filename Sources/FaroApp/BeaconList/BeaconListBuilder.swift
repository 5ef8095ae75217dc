import FaroCore
import FoundationEssentials

/// Builds the beacon list tick after tick (on a worker thread: nothing here touches GTK). It is the only place a
/// row is made: every word a row shows (names, distance, proximity, trend, accessible name) is decided here, and
/// the GTK layer only puts the strings in its widgets. A beacon's title and
/// subtitle are made once and kept while its catalog entry stays the same (a thousand `replacingOccurrences` a
/// second were most of the main thread's tick), and each row is compared with the one built before it, which
/// gives the revisions of `BeaconListUpdate`.
///
/// What it remembers of each beacon is updated in place, one lookup per row: building a second table each tick
/// and copying every remembered row out of the old one retained and released all of their strings.
public struct BeaconListBuilder: Sendable {
    private struct Remembered: Sendable {
        var entry: CatalogPlace?
        var title: String
        var subtitle: String
        var row: BeaconRowModel
        var revision: UInt64
        /// The generation of the last list that held the beacon.
        var listed: UInt64
        /// The distance step `row.distanceText` shows (`DistanceText.step`).
        var distanceStep: Int
        /// The names and identity folded for a search (`SearchText`), made the first time a query needs them and
        /// again only when the names change.
        var searchText: String?

        /// The names for `entry`, made again if the catalog entry changed.
        mutating func rename(_ identity: BeaconIdentity, entry: CatalogPlace?, words: Words) {
            guard self.entry != entry else { return }
            (title, subtitle) = BeaconListBuilder.names(identity, entry: entry, unknownTemplate: words.unknownTemplate)
            self.entry = entry
            searchText = nil
        }

        /// Whether the beacon's names or identity contain `query` (with its names as of `entry`).
        mutating func matches(
            _ query: SearchQuery, identity: BeaconIdentity, entry: CatalogPlace?, words: Words
        ) -> Bool {
            rename(identity, entry: entry, words: words)
            if searchText == nil {
                searchText = SearchText.fold(fields: [title, subtitle] + identity.searchFields)
            }
            return query.matches(folded: searchText ?? "")
        }

        /// The beacon's row at `generation`, built from what is remembered of it: the names again only when its
        /// catalog entry changed, the revision kept when the row came out the same.
        mutating func relist(
            _ beacon: RangedBeacon, entry: CatalogPlace?, words: Words, generation: UInt64
        ) -> (BeaconRowModel, UInt64) {
            let proximityText = words[beacon.proximity]
            rename(beacon.identity, entry: entry, words: words)
            // The distance text only changes when its shown step does (most ticks move a beacon by less).
            let step = DistanceText.step(beacon.distance)
            let distance = step == distanceStep ? row.distanceText : DistanceText.approximate(step: step)
            distanceStep = step
            // The accessible name is kept when what it is made of did not change: the same text, one allocation fewer.
            let accessibleName =
                row.title == title && row.subtitle == subtitle && row.distanceText == distance
                    && row.proximityText == proximityText
                ? row.accessibleName
                : BeaconListBuilder.accessibleName(
                    title: title, subtitle: subtitle, distance: distance, proximity: proximityText)
            let history = beacon.history.values
            let new = BeaconRowModel(
                identity: beacon.identity, title: title, subtitle: subtitle, distanceText: distance,
                proximityText: proximityText, proximity: beacon.proximity, history: history,
                trendText: words[BeaconListBuilder.trend(history)], isCatalogued: entry != nil,
                accessibleName: accessibleName)
            if new != row { revision = generation }
            row = new
            listed = generation
            return (row, revision)
        }
    }

    /// The words rows share, translated once (not once per row: the list may hold a thousand beacons).
    struct Words: Sendable {
        var immediate: String
        var near: String
        var far: String
        var unknown: String
        var closer: String
        var away: String
        var steady: String
        var unknownTemplate: String

        init(localize: Localizer) {
            immediate = BeaconListBuilder.proximityText(.immediate, localize: localize)
            near = BeaconListBuilder.proximityText(.near, localize: localize)
            far = BeaconListBuilder.proximityText(.far, localize: localize)
            unknown = BeaconListBuilder.proximityText(.unknown, localize: localize)
            closer = localize("Getting closer")
            away = localize("Moving away")
            steady = localize("Steady")
            unknownTemplate = localize("Unknown beacon %@")
        }

        subscript(proximity: Proximity) -> String {
            switch proximity {
            case .immediate: return immediate
            case .near: return near
            case .far: return far
            case .unknown: return unknown
            }
        }

        subscript(trend: BeaconTrend) -> String {
            switch trend {
            case .closer: return closer
            case .away: return away
            case .steady: return steady
            }
        }
    }

    private let localize: Localizer
    private let words: Words
    private var remembered: [BeaconIdentity: Remembered] = [:]
    /// How many beacons' rows are remembered (those of the last list).
    public var rememberedCount: Int { remembered.count }
    private var generation: UInt64 = 0

    public init(localize: Localizer) {
        self.localize = localize
        words = Words(localize: localize)
    }

    /// The list for `snapshot` (nearest first, as the engine sorted it; a repeated identity is listed once): the
    /// beacons whose names or identity contain `query` (all of them for an empty query). Beacons the query leaves
    /// out are still remembered (their names, and their folded search text): a change of query or a beacon that
    /// comes to match costs one row, not the names again.
    public mutating func update(
        snapshot: RangingSnapshot, catalog: CatalogIndex,
        state: ScannerState, query: SearchQuery = .everything
    ) -> BeaconListUpdate {
        generation += 1
        let count = snapshot.beacons.count
        var rows: [BeaconRowModel] = []
        var revisions: [UInt64] = []
        var order: [BeaconIdentity] = []
        var positions: [BeaconIdentity: Int] = [:]
        rows.reserveCapacity(count)
        revisions.reserveCapacity(count)
        order.reserveCapacity(count)
        positions.reserveCapacity(count)
        remembered.reserveCapacity(count)
        /// The distinct beacons of the snapshot (listed or left out by the query).
        var heard = 0
        for beacon in snapshot.beacons {
            let id = beacon.identity
            let entry: CatalogPlace?
            let row: BeaconRowModel
            let revision: UInt64
            if let r = remembered.index(forKey: id) {
                // A repeat (an engine's snapshot names each identity once) stays where it was first listed.
                if remembered.values[r].listed == generation { continue }
                heard += 1
                entry = catalog.place(for: id)
                if !query.isEmpty, !remembered.values[r].matches(query, identity: id, entry: entry, words: words) {
                    remembered.values[r].listed = generation
                    continue
                }
                (row, revision) = remembered.values[r].relist(
                    beacon, entry: entry, words: words, generation: generation)
            } else {
                heard += 1
                entry = catalog.place(for: id)
                row = BeaconListBuilder.row(beacon, entry: entry, words: words)
                revision = generation
                var new = Remembered(
                    entry: entry, title: row.title, subtitle: row.subtitle, row: row, revision: revision,
                    listed: generation, distanceStep: DistanceText.step(beacon.distance))
                let matches = query.isEmpty || new.matches(query, identity: id, entry: entry, words: words)
                remembered[id] = new
                if !matches { continue }
            }
            positions[id] = rows.count
            rows.append(row)
            revisions.append(revision)
            order.append(id)
        }
        // Beacons that left are forgotten: one coming back is a new row. Every beacon heard is remembered, so
        // there are more remembered than heard exactly when some left.
        if remembered.count > heard {
            let listed = generation
            remembered = remembered.filter { $0.value.listed == listed }
        }
        let empty =
            rows.isEmpty && !query.isEmpty
            ? SearchResults.emptyTexts(query, localize: localize) : state.emptyTexts(localize)
        return BeaconListUpdate(
            generation: generation,
            model: BeaconListViewModel(rows: rows, emptyTitle: empty.title, emptyDetail: empty.detail),
            revisions: revisions, order: order, positions: positions, query: query)
    }

    /// The list for one snapshot, built afresh (no earlier list to compare with).
    public static func list(
        snapshot: RangingSnapshot, catalog: CatalogIndex, state: ScannerState, localize: Localizer
    ) -> BeaconListViewModel {
        var builder = BeaconListBuilder(localize: localize)
        return builder.update(snapshot: snapshot, catalog: catalog, state: state).model
    }

    /// The proximity in words ("cerca").
    public static func proximityText(_ proximity: Proximity, localize: Localizer) -> String {
        switch proximity {
        case .immediate: return localize("immediate")
        case .near: return localize("near")
        case .far: return localize("far")
        case .unknown: return localize("unknown")
        }
    }

    /// Which way the distance went over the last ten values of `history` (oldest first, NaN = unknown): closer
    /// when the last known distance is under 0.8 of the first, away when it is over 1.25 times it, steady
    /// otherwise or with fewer than three known values.
    public static func trend(_ history: [Float]) -> BeaconTrend {
        var first: Float?
        var last: Float = 0
        var known = 0
        for value in history[max(history.count - 10, 0)...] where value.isFinite {
            if first == nil { first = value }
            last = value
            known += 1
        }
        guard let first, known >= 3 else { return .steady }
        if last < first * 0.8 { return .closer }
        if last > first * 1.25 { return .away }
        return .steady
    }

    /// The title and subtitle of a beacon's row: the catalog's site title and business, or its major/minor and a
    /// hint that it is not in the catalog.
    static func names(
        _ identity: BeaconIdentity, entry: CatalogPlace?,
        unknownTemplate: String
    ) -> (title: String, subtitle: String) {
        let title = entry?.titulo ?? "\(identity.major)/\(identity.minor)"
        let subtitle =
            entry?.cliente
            ?? unknownTemplate.replacing("%@", with: identity.uuid.description)
        return (title, subtitle)
    }

    /// A beacon's first row.
    static func row(_ beacon: RangedBeacon, entry: CatalogPlace?, words: Words) -> BeaconRowModel {
        let (title, subtitle) = names(beacon.identity, entry: entry, unknownTemplate: words.unknownTemplate)
        let distance = DistanceText.approximate(beacon.distance)
        let proximityText = words[beacon.proximity]
        let history = beacon.history.values
        return BeaconRowModel(
            identity: beacon.identity, title: title, subtitle: subtitle, distanceText: distance,
            proximityText: proximityText, proximity: beacon.proximity, history: history,
            trendText: words[trend(history)], isCatalogued: entry != nil,
            accessibleName: accessibleName(
                title: title, subtitle: subtitle, distance: distance, proximity: proximityText))
    }

    /// What a screen reader says about a row.
    static func accessibleName(title: String, subtitle: String, distance: String, proximity: String) -> String {
        "\(title), \(subtitle), \(distance), \(proximity)"
    }
}
