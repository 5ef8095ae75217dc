import FaroCore

/// The beacon list after one tick, as the GTK layer takes it from the thread that built it: every row ready to
/// show, nearest first, and for each row the generation at which it last changed, so the main thread can tell a
/// changed row by comparing two numbers and touches only the rows that changed, and only near the viewport.
public struct BeaconListUpdate: Sendable {
    /// Grows with every update; a row's revision is the generation of the update in which its content last changed.
    public var generation: UInt64
    public var model: BeaconListViewModel
    /// Per row of `model.rows`: the generation at which it last changed. Two updates that give a beacon the same
    /// revision give it the same row.
    public var revisions: [UInt64]
    /// The identities, nearest first (`model.rows.map(\.identity)`).
    public var order: [BeaconIdentity]
    /// Each identity's index in `model.rows`.
    public var positions: [BeaconIdentity: Int]

    /// A beacon's row and its revision, or nil when the beacon is not in the list.
    public func row(_ identity: BeaconIdentity) -> (model: BeaconRowModel, revision: UInt64)? {
        guard let i = positions[identity] else { return nil }
        return (model.rows[i], revisions[i])
    }
}

/// Builds the beacon list tick after tick (on a worker thread: nothing here touches GTK). A beacon's title and
/// subtitle are made once and kept while its catalog entry stays the same (a thousand `replacingOccurrences` a
/// second were most of the main thread's tick), and each row is compared with the one built before it, which
/// gives the revisions of `BeaconListUpdate`.
public struct BeaconListBuilder: Sendable {
    private struct Remembered: Sendable {
        var entry: CatalogPlace?
        var title: String
        var subtitle: String
        var row: BeaconRowModel
        var revision: UInt64
    }

    private let localize: Localizer
    private let proximityWords: [Proximity: String]
    private let unknownTemplate: String
    private var remembered: [BeaconIdentity: Remembered] = [:]
    private var generation: UInt64 = 0

    public init(localize: Localizer) {
        self.localize = localize
        // Translated once, not once per row (the list may hold a thousand beacons).
        var words: [Proximity: String] = [:]
        for p in Proximity.allCases { words[p] = BeaconListViewModel.proximityText(p, localize: localize) }
        proximityWords = words
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
        var next: [BeaconIdentity: Remembered] = [:]
        rows.reserveCapacity(count)
        revisions.reserveCapacity(count)
        order.reserveCapacity(count)
        positions.reserveCapacity(count)
        next.reserveCapacity(count)
        for beacon in snapshot.beacons {
            let id = beacon.identity
            guard positions[id] == nil else { continue }
            let entry = catalog.place(for: id)
            let old = remembered[id]
            let title: String
            let subtitle: String
            if let old, old.entry == entry {
                title = old.title
                subtitle = old.subtitle
            } else {
                (title, subtitle) = BeaconListViewModel.names(id, entry: entry, unknownTemplate: unknownTemplate)
            }
            let row = BeaconListViewModel.row(
                beacon, title: title, subtitle: subtitle, isCatalogued: entry != nil,
                proximityText: proximityWords[beacon.proximity] ?? "")
            let revision = old.map { $0.row == row ? $0.revision : generation } ?? generation
            positions[id] = rows.count
            rows.append(row)
            revisions.append(revision)
            order.append(id)
            next[id] = Remembered(entry: entry, title: title, subtitle: subtitle, row: row, revision: revision)
        }
        // Beacons that left are forgotten: one coming back is a new row.
        remembered = next
        let empty = BeaconListViewModel.emptyTexts(state, localize: localize)
        return BeaconListUpdate(
            generation: generation,
            model: BeaconListViewModel(rows: rows, emptyTitle: empty.title, emptyDetail: empty.detail),
            revisions: revisions, order: order, positions: positions)
    }
}
