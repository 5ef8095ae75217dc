import FaroApp
import FaroCore
import Testing

/// The beacon list's search, where its rows are built (docs/beacons.md, "Search").
@Suite("Beacon list search (rows filtered where they are built)")
struct BeaconListSearchTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    func id(_ minor: UInt16, major: UInt16 = 100) -> BeaconIdentity {
        BeaconIdentity(uuid: uuid, major: major, minor: minor)
    }

    func ranged(_ id: BeaconIdentity, _ distance: Double?, history: [Float] = [3, 2.5]) -> RangedBeacon {
        RangedBeacon(
            identity: id, measuredPower: -59, address: BluetoothAddress(value: UInt64(id.minor)),
            rssi: -60, smoothedRSSI: -60, distance: distance, proximity: Proximity(distance: distance),
            firstSeen: 0, lastSeen: 1, history: DistanceHistory(history))
    }

    func snapshot(_ beacons: [RangedBeacon]) -> RangingSnapshot { RangingSnapshot(time: 1, beacons: beacons) }

    var catalog: CatalogIndex {
        CatalogIndex([
            CatalogPlace(identity: id(1), cliente: "Ferretería Ñandú", titulo: "Tornillos y más", url: ""),
            CatalogPlace(identity: id(2), cliente: "Librería El Péndulo", titulo: "Novedades", url: ""),
        ])
    }

    @Test func onlyMatchingBeaconsAreListedIgnoringCaseAndAccents() {
        let beacons = [ranged(id(1), 2), ranged(id(2), 3), ranged(id(42, major: 7), 4)]
        var builder = BeaconListBuilder(localize: .english)
        let found = builder.update(
            snapshot: snapshot(beacons), catalog: catalog, state: .scanning, query: SearchQuery("NANDU"))
        #expect(found.order == [id(1)])
        #expect(found.positions == [id(1): 0])
        #expect(found.model.rows.map(\.subtitle) == ["Ferretería Ñandú"])
        #expect(found.query == SearchQuery("NANDU"))

        // By title, by major/minor of a beacon the catalog does not know, by UUID (all of them).
        for (typed, expected) in [
            ("novedades", [id(2)]), ("7/42", [id(42, major: 7)]), ("FA20DE30", [id(1), id(2), id(42, major: 7)]),
            ("péndulo", [id(2)]), ("", [id(1), id(2), id(42, major: 7)]),
        ] {
            let update = builder.update(
                snapshot: snapshot(beacons), catalog: catalog, state: .scanning, query: SearchQuery(typed))
            #expect(update.order == expected, "\(typed)")
            #expect(update.model.rows.map(\.identity) == expected, "\(typed)")
        }
    }

    @Test func aFilteredListIsTheFullListWithoutTheOthers() {
        // Tick after tick with a query, the rows (and their revisions) are those of the unfiltered list that match.
        let ticks: [[RangedBeacon]] = [
            [ranged(id(1), 2), ranged(id(3), 5)],
            [ranged(id(3), 1, history: [5, 3, 1]), ranged(id(1), 2)],
            [ranged(id(3), 1, history: [5, 3, 1]), ranged(id(2), 1.5), ranged(id(1), 2.6)],
            [ranged(id(2), 1.5)],
            [ranged(id(1), 2), ranged(id(2), 1.5)],
        ]
        let query = SearchQuery("ñandú")
        var filtered = BeaconListBuilder(localize: .english)
        var full = BeaconListBuilder(localize: .english)
        for beacons in ticks {
            let some = filtered.update(snapshot: snapshot(beacons), catalog: catalog, state: .scanning, query: query)
            let all = full.update(snapshot: snapshot(beacons), catalog: catalog, state: .scanning)
            let matching = all.model.rows.filter { $0.identity == id(1) }
            #expect(some.model.rows == matching)
            #expect(some.order == matching.map(\.identity))
            // Every beacon heard is remembered, listed or not; those that left are forgotten.
            #expect(filtered.rememberedCount == Set(beacons.map(\.identity)).count)
        }
    }

    @Test func aBeaconThatComesToMatchAppearsAndARowKeepsItsRevision() {
        var builder = BeaconListBuilder(localize: .english)
        let query = SearchQuery("pendulo")
        let first = builder.update(
            snapshot: snapshot([ranged(id(1), 2)]), catalog: catalog, state: .scanning, query: query)
        #expect(first.order.isEmpty)
        // Heard: it appears.
        let second = builder.update(
            snapshot: snapshot([ranged(id(1), 2), ranged(id(2), 3)]), catalog: catalog, state: .scanning, query: query)
        #expect(second.order == [id(2)])
        // Unchanged: same revision (the page does not touch it).
        let third = builder.update(
            snapshot: snapshot([ranged(id(2), 3), ranged(id(1), 2)]), catalog: catalog, state: .scanning, query: query)
        #expect(third.order == [id(2)])
        #expect(third.row(id(2))?.revision == second.row(id(2))?.revision)
        // The catalog renames beacon 1 to something that matches: it is listed with its new names.
        let renamed = CatalogIndex([
            CatalogPlace(identity: id(1), cliente: "Péndulo Dos", titulo: "Otra", url: ""),
            CatalogPlace(identity: id(2), cliente: "Librería El Péndulo", titulo: "Novedades", url: ""),
        ])
        let fourth = builder.update(
            snapshot: snapshot([ranged(id(2), 3), ranged(id(1), 2)]), catalog: renamed, state: .scanning, query: query)
        #expect(fourth.order == [id(2), id(1)])
        #expect(fourth.row(id(1))?.model.subtitle == "Péndulo Dos")
    }

    @Test func noMatchSaysSoAndAnEmptyRoomStillSaysWhy() {
        var builder = BeaconListBuilder(localize: .english)
        let none = builder.update(
            snapshot: snapshot([ranged(id(1), 2)]), catalog: catalog, state: .scanning, query: SearchQuery(" zzz "))
        #expect(none.model.rows.isEmpty)
        #expect(none.model.emptyTitle == "No results for “zzz”")
        let spanish = Localizer { ["No results for “%@”": "Sin resultados para «%@»"][$0] ?? $0 }
        var es = BeaconListBuilder(localize: spanish)
        let nada = es.update(
            snapshot: snapshot([ranged(id(1), 2)]), catalog: catalog, state: .scanning, query: SearchQuery("nandú x"))
        #expect(nada.model.emptyTitle == "Sin resultados para «nandú x»")
        // Without a query, an empty list says why as before.
        let empty = builder.update(snapshot: snapshot([]), catalog: catalog, state: .bluetoothOff)
        #expect(empty.model.emptyTitle == "Bluetooth is off")
    }

    @Test func theStageBuildsWithTheWindowsQuery() {
        final class Published: @unchecked Sendable { var orders: [[BeaconIdentity]] = [] }
        let published = Published()
        // The stage publishes synchronously, on the caller's thread (the session's, in the app).
        let stage = BeaconListStage(localize: .english) { published.orders.append($0.order) }
        let tick = RangedBeacons(snapshot: snapshot([ranged(id(1), 2), ranged(id(2), 3)]), catalog: catalog)
        _ = stage.process(
            [.ranged(tick)],
            inputs: BeaconListInputs(state: .scanning, listWanted: true, query: SearchQuery("libreria")),
            refresh: false)
        _ = stage.process(
            [.ranged(tick)], inputs: BeaconListInputs(state: .scanning, listWanted: true), refresh: true)
        #expect(published.orders == [[id(2)], [id(1), id(2)]])
    }
}

/// Guardados and "Lugares visitados" keep the entries that match before any row is made.
@Suite("Saved pages and visits search")
struct SavedAndVisitsSearchTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    @Test func savedPagesMatchByTitleOrBusiness() {
        let saved = [
            SavedSiteSummary(
                id: 1, url: "u1", title: "Novedades de la semana", business: "Librería El Péndulo", savedAt: 0),
            SavedSiteSummary(id: 2, url: "u2", title: "Menú del día", business: "Taquería Los Cocuyos", savedAt: 0),
            SavedSiteSummary(id: 3, url: "u3", title: "Ñandú", business: "Ferretería", savedAt: 0),
        ]
        #expect(SearchResults.saved(saved, matching: SearchQuery("pendulo")).map(\.id) == [1])
        #expect(SearchResults.saved(saved, matching: SearchQuery("MENU")).map(\.id) == [2])
        #expect(SearchResults.saved(saved, matching: SearchQuery("ería")).map(\.id) == [1, 2, 3])
        #expect(SearchResults.saved(saved, matching: SearchQuery("nandu")).map(\.id) == [3])
        #expect(SearchResults.saved(saved, matching: SearchQuery("u1")).isEmpty)
        #expect(SearchResults.saved(saved, matching: .everything) == saved)
    }

    @Test func visitsMatchByPlaceAndBeacon() {
        func visit(_ id: Int64, _ titulo: String, _ cliente: String, major: UInt16, minor: UInt16) -> VisitEntry {
            VisitEntry(
                id: id,
                place: CatalogPlace(
                    identity: BeaconIdentity(uuid: uuid, major: major, minor: minor), cliente: cliente,
                    titulo: titulo, url: ""),
                enteredAt: Double(id), leftAt: nil, closest: nil)
        }
        let visits = [
            visit(3, "Cartelera de hoy", "Cine Tonalá", major: 300, minor: 1),
            visit(2, "Novedades", "Librería El Péndulo", major: 100, minor: 2),
            visit(1, "Cartelera de hoy", "Cine Tonalá", major: 300, minor: 1),
        ]
        #expect(SearchResults.visits(visits, matching: SearchQuery("tonala")).map(\.id) == [3, 1])
        #expect(SearchResults.visits(visits, matching: SearchQuery("100/2")).map(\.id) == [2])
        #expect(SearchResults.visits(visits, matching: SearchQuery("cartelera")).map(\.id) == [3, 1])
        #expect(SearchResults.visits(visits, matching: SearchQuery("zzz")).isEmpty)
        #expect(SearchResults.visits(visits, matching: .everything) == visits)
        let texts = SearchResults.emptyTexts(SearchQuery(" zzz "), localize: .english)
        #expect(texts.title == "No results for “zzz”")
    }
}
