import FaroApp
import FaroCore
import Testing

@Suite("Beacon list updates (built off the main thread)")
struct BeaconListUpdateTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    func id(_ minor: UInt16) -> BeaconIdentity { BeaconIdentity(uuid: uuid, major: 100, minor: minor) }

    func ranged(_ minor: UInt16, _ distance: Double?, history: [Float] = [3, 2.5]) -> RangedBeacon {
        RangedBeacon(
            identity: id(minor), measuredPower: -59, address: BluetoothAddress(value: UInt64(minor)),
            rssi: -60, smoothedRSSI: -60, distance: distance, proximity: Proximity(distance: distance),
            firstSeen: 0, lastSeen: 1, history: DistanceHistory(history))
    }

    func snapshot(_ beacons: [RangedBeacon]) -> RangingSnapshot { RangingSnapshot(time: 1, beacons: beacons) }

    @Test func theUpdateHoldsTheSameRowsAsTheViewModel() {
        let place = CatalogPlace(
            identity: id(1), cliente: "Café La Parroquia", titulo: "Café de olla",
            url: "http://127.0.0.1/sitios/cafe/")
        let snap = snapshot([ranged(1, 2.4), ranged(2, 7), ranged(3, nil)])
        var builder = BeaconListBuilder(localize: .english)
        let update = builder.update(snapshot: snap, catalog: CatalogIndex([place]), state: .scanning)
        let model = BeaconListBuilder.list(
            snapshot: snap, catalog: CatalogIndex([place]), state: .scanning, localize: .english)
        #expect(update.model == model)
        #expect(update.order == [id(1), id(2), id(3)])
        #expect(update.positions == [id(1): 0, id(2): 1, id(3): 2])
        #expect(update.row(id(2))?.model.subtitle == "Unknown beacon fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1")
        #expect(update.row(id(9)) == nil)
        #expect(update.model.emptyTitle == "Looking for beacons…")
    }

    @Test func aRowKeepsItsRevisionUntilItChanges() {
        var builder = BeaconListBuilder(localize: .english)
        let first = builder.update(
            snapshot: snapshot([ranged(1, 2.4), ranged(2, 7)]), catalog: CatalogIndex(), state: .scanning)
        #expect(first.revisions == [first.generation, first.generation])

        // Beacon 1 is where it was; beacon 2 came closer (a new distance and history) and is now first.
        let second = builder.update(
            snapshot: snapshot([ranged(2, 1.0, history: [3, 2.5, 1]), ranged(1, 2.4)]),
            catalog: CatalogIndex(), state: .scanning)
        #expect(second.generation > first.generation)
        #expect(second.order == [id(2), id(1)])
        #expect(second.row(id(1))?.revision == first.row(id(1))?.revision)
        #expect(second.row(id(2))?.revision == second.generation)

        // The catalog answers for beacon 1: its title changes, so does its revision.
        let place = CatalogPlace(identity: id(1), cliente: "Farmacia", titulo: "Farmacia del Centro", url: "")
        let third = builder.update(
            snapshot: snapshot([ranged(2, 1.0, history: [3, 2.5, 1]), ranged(1, 2.4)]),
            catalog: CatalogIndex([place]), state: .scanning)
        #expect(third.row(id(1))?.model.title == "Farmacia del Centro")
        #expect(third.row(id(1))?.revision == third.generation)
        #expect(third.row(id(2))?.revision == second.generation)
    }

    @Test func rowsBuiltTickAfterTickAreTheRowsBuiltAfresh() {
        // What the builder remembers between ticks (names, rows, accessible names) must never show.
        let place = CatalogPlace(identity: id(2), cliente: "Farmacia", titulo: "Farmacia del Centro", url: "")
        let ticks: [([RangedBeacon], CatalogIndex)] = [
            ([ranged(1, 2.4), ranged(2, 7)], CatalogIndex()),
            ([ranged(1, 2.4), ranged(2, 7)], CatalogIndex([place])),  // the catalog names beacon 2
            ([ranged(2, 1.0, history: [3, 2.5, 1]), ranged(1, 2.5)], CatalogIndex([place])),  // both moved
            ([ranged(1, 2.46), ranged(2, 1.04)], CatalogIndex([place])),  // both moved within their shown steps
            ([ranged(1, 2.54), ranged(2, 9.96)], CatalogIndex([place])),  // 1 within its step; 2 shown as "10 m"
            ([ranged(1, 2.55), ranged(2, 10.4)], CatalogIndex([place])),  // 1 into 2.6; 2 stays at "10 m"
            ([ranged(3, nil), ranged(1, 2.5)], CatalogIndex()),  // 2 left, 3 came, the catalog is gone
            ([ranged(1, 12), ranged(2, 0.3)], CatalogIndex([place])),  // 2 is back
            ([ranged(1, 12), ranged(2, 0.3)], CatalogIndex([place])),  // nothing changed
        ]
        var builder = BeaconListBuilder(localize: .english)
        var previous: BeaconListUpdate?
        for (beacons, catalog) in ticks {
            let update = builder.update(snapshot: snapshot(beacons), catalog: catalog, state: .scanning)
            let fresh = BeaconListBuilder.list(
                snapshot: snapshot(beacons), catalog: catalog, state: .scanning, localize: .english)
            #expect(update.model == fresh)
            #expect(update.order == beacons.map(\.identity))
            #expect(update.positions.count == beacons.count)
            for (i, row) in update.model.rows.enumerated() {
                #expect(
                    row.accessibleName == "\(row.title), \(row.subtitle), \(row.distanceText), \(row.proximityText)")
                // A revision moves exactly when the row differs from the one the previous list had.
                if let before = previous?.row(row.identity) {
                    #expect((update.revisions[i] == before.revision) == (before.model == row))
                } else {
                    #expect(update.revisions[i] == update.generation)
                }
            }
            previous = update
        }
        #expect(previous?.row(id(1))?.model.accessibleName == "100/1, Unknown beacon \(uuid), ≈ 12 m, far")
    }

    @Test func aBeaconThatLeftComesBackAsANewRow() {
        var builder = BeaconListBuilder(localize: .english)
        let first = builder.update(snapshot: snapshot([ranged(1, 2.4)]), catalog: CatalogIndex(), state: .scanning)
        let gone = builder.update(snapshot: snapshot([]), catalog: CatalogIndex(), state: .scanning)
        #expect(gone.order.isEmpty)
        #expect(gone.model.rows.isEmpty)
        let back = builder.update(snapshot: snapshot([ranged(1, 2.4)]), catalog: CatalogIndex(), state: .scanning)
        #expect(back.row(id(1))?.model == first.row(id(1))?.model)
        #expect(back.row(id(1))?.revision == back.generation)
        #expect(back.row(id(1))?.revision != first.row(id(1))?.revision)
    }

    @Test func aRepeatedIdentityIsListedOnce() {
        var builder = BeaconListBuilder(localize: .english)
        let update = builder.update(
            snapshot: snapshot([ranged(1, 2.4), ranged(2, 3), ranged(1, 9)]), catalog: CatalogIndex(),
            state: .scanning)
        #expect(update.order == [id(1), id(2)])
        #expect(update.model.rows.count == 2)
        #expect(update.revisions.count == 2)
        #expect(update.model.rows[0].distanceText == "≈ 2.4 m")
    }

    @Test func theEmptyStateFollowsTheScanner() {
        var builder = BeaconListBuilder(localize: .english)
        let update = builder.update(snapshot: snapshot([]), catalog: CatalogIndex(), state: .bluetoothOff)
        #expect(update.model.emptyTitle == "Bluetooth is off")
        #expect(update.model.emptyDetail == "Turn Bluetooth on to see the places near you.")
    }

    // MARK: the ticker

    /// A strategy without smoothing, so distances are exact: -59 dBm at 1 m, -65 dBm ≈ 2 m, -79 dBm = 10 m.
}

@Suite("Row refresh slices")
struct RowRefreshQueueTests {
    /// A clock that advances by `step` on every reading.
    final class FakeClock {
        var time = 0.0
        let step: Double
        init(step: Double) { self.step = step }
        func now() -> Double {
            defer { time += step }
            return time
        }
    }

    @Test func visibleRowsFirstThenOutwardsAlternatingBelowAndAbove() {
        let order = RowRefreshQueue<Int>.order(visible: 10..<13, window: 7..<16)
        #expect(order.visible == [10, 11, 12])
        #expect(order.around == [13, 9, 14, 8, 15, 7])
        let top = RowRefreshQueue<Int>.order(visible: 0..<3, window: 0..<6)
        #expect(top.visible == [0, 1, 2])
        #expect(top.around == [3, 4, 5])
        let clamped = RowRefreshQueue<Int>.order(visible: 4..<20, window: 0..<8)
        #expect(clamped.visible == [4, 5, 6, 7])
        #expect(clamped.around == [3, 2, 1, 0])
        let nothingShown = RowRefreshQueue<Int>.order(visible: 0..<0, window: 0..<3)
        #expect(nothingShown.visible == [])
        #expect(nothingShown.around == [0, 1, 2])
    }

    @Test func theFirstSliceDoesEveryVisibleRowWhateverTheBudget() {
        var queue = RowRefreshQueue(visible: [1, 2, 3, 4], around: [5, 6, 7, 8, 9])
        let clock = FakeClock(step: 1)  // every row "takes" a unit: far over the budget
        var done: [Int] = []
        let more = queue.runSlice(budget: 0.5, now: clock.now) {
            done.append($0)
            return true
        }
        #expect(done == [1, 2, 3, 4])
        #expect(more)
        #expect(Array(queue.remaining) == [5, 6, 7, 8, 9])
        // Later slices do at least one row each, and stop when the budget is spent.
        queue.runSlice(budget: 0.5, now: clock.now) {
            done.append($0)
            return true
        }
        #expect(done == [1, 2, 3, 4, 5])
        queue.runSlice(budget: 2.5, now: clock.now) {
            done.append($0)
            return true
        }
        #expect(done == [1, 2, 3, 4, 5, 6, 7, 8])
        let last = queue.runSlice(budget: 10, now: clock.now) {
            done.append($0)
            return true
        }
        #expect(!last)
        #expect(queue.isEmpty)
        #expect(done == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test func rowsThatNeedNoWorkDoNotCountAsTheSlicesOneRow() {
        var queue = RowRefreshQueue(visible: [], around: [1, 2, 3, 4])
        let clock = FakeClock(step: 1)
        var applied: [Int] = []
        // Rows 1 and 2 are current already; row 3 is the one the slice must do, then the budget is spent.
        queue.runSlice(budget: 0.5, now: clock.now) { row in
            guard row >= 3 else { return false }
            applied.append(row)
            return true
        }
        #expect(applied == [3])
        #expect(Array(queue.remaining) == [4])
    }

    @Test func anEmptyQueueHasNothingToDo() {
        var queue = RowRefreshQueue<Int>()
        #expect(queue.isEmpty)
        var calls = 0
        let clock = { 0.0 }
        let more = queue.runSlice(budget: 1, now: clock) { _ in
            calls += 1
            return true
        }
        #expect(!more)
        #expect(calls == 0)
    }
}
