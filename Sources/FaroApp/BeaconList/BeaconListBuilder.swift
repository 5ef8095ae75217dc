import FaroCore

/// Builds the beacon list tick after tick (on a worker thread: nothing here touches GTK). A beacon's title and
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

        /// The beacon's row at `generation`, built from what is remembered of it: the names again only when its
        /// catalog entry changed, the revision kept when the row came out the same.
        mutating func relist(
            _ beacon: RangedBeacon, entry: CatalogPlace?, proximityText: String, unknownTemplate: String,
            generation: UInt64
        ) -> (BeaconRowModel, UInt64) {
            if self.entry != entry {
                (title, subtitle) = BeaconListViewModel.names(
                    beacon.identity, entry: entry, unknownTemplate: unknownTemplate)
                self.entry = entry
            }
            // The distance text only changes when its shown step does (most ticks move a beacon by less).
            let step = DistanceText.step(beacon.distance)
            let distance = step == distanceStep ? row.distanceText : DistanceText.approximate(step: step)
            distanceStep = step
            // The accessible name is kept when what it is made of did not change: the same text, one allocation fewer.
            let accessibleName =
                row.title == title && row.subtitle == subtitle && row.distanceText == distance
                    && row.proximityText == proximityText
                ? row.accessibleName
                : BeaconListViewModel.accessibleName(
                    title: title, subtitle: subtitle, distance: distance, proximity: proximityText)
            let new = BeaconRowModel(
                identity: beacon.identity, title: title, subtitle: subtitle, distanceText: distance,
                proximityText: proximityText, proximity: beacon.proximity, history: beacon.history.values,
                isCatalogued: entry != nil, accessibleName: accessibleName)
            if new != row { revision = generation }
            row = new
            listed = generation
            return (row, revision)
        }
    }

    /// The proximity words, translated once (not once per row: the list may hold a thousand beacons).
    private struct ProximityWords: Sendable {
        var immediate: String
        var near: String
        var far: String
        var unknown: String

        subscript(proximity: Proximity) -> String {
            switch proximity {
            case .immediate: return immediate
            case .near: return near
            case .far: return far
            case .unknown: return unknown
            }
        }
    }

    private let localize: Localizer
    private let proximityWords: ProximityWords
    private let unknownTemplate: String
    private var remembered: [BeaconIdentity: Remembered] = [:]
    /// How many beacons' rows are remembered (those of the last list).
    public var rememberedCount: Int { remembered.count }
    private var generation: UInt64 = 0

    public init(localize: Localizer) {
        self.localize = localize
        proximityWords = ProximityWords(
            immediate: BeaconListViewModel.proximityText(.immediate, localize: localize),
            near: BeaconListViewModel.proximityText(.near, localize: localize),
            far: BeaconListViewModel.proximityText(.far, localize: localize),
            unknown: BeaconListViewModel.proximityText(.unknown, localize: localize))
        unknownTemplate = localize("Unknown beacon %@")
    }

    /// The list for `snapshot` (nearest first, as the engine sorted it; a repeated identity is listed once).
    public mutating func update(
        snapshot: RangingSnapshot, catalog: CatalogIndex,
        state: ScannerState
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
        for beacon in snapshot.beacons {
            let id = beacon.identity
            // One lookup in the usual case (an engine's snapshot names each identity once); a repeat is put back
            // where it was first listed.
            if let first = positions.updateValue(rows.count, forKey: id) {
                positions[id] = first
                continue
            }
            let entry = catalog.place(for: id)
            let proximityText = proximityWords[beacon.proximity]
            let row: BeaconRowModel
            let revision: UInt64
            if let r = remembered.index(forKey: id) {
                (row, revision) = remembered.values[r].relist(
                    beacon, entry: entry, proximityText: proximityText, unknownTemplate: unknownTemplate,
                    generation: generation)
            } else {
                let (title, subtitle) = BeaconListViewModel.names(
                    id, entry: entry, unknownTemplate: unknownTemplate)
                row = BeaconListViewModel.row(
                    beacon, title: title, subtitle: subtitle, isCatalogued: entry != nil,
                    proximityText: proximityText)
                revision = generation
                remembered[id] = Remembered(
                    entry: entry, title: title, subtitle: subtitle, row: row, revision: revision,
                    listed: generation, distanceStep: DistanceText.step(beacon.distance))
            }
            rows.append(row)
            revisions.append(revision)
            order.append(id)
        }
        // Beacons that left are forgotten: one coming back is a new row. Every listed beacon is remembered, so
        // there are more remembered than rows exactly when some left.
        if remembered.count > rows.count {
            let listed = generation
            remembered = remembered.filter { $0.value.listed == listed }
        }
        let empty = BeaconListViewModel.emptyTexts(state, localize: localize)
        return BeaconListUpdate(
            generation: generation,
            model: BeaconListViewModel(rows: rows, emptyTitle: empty.title, emptyDetail: empty.detail),
            revisions: revisions, order: order, positions: positions)
    }
}
