import CGtk
import FaroApp
import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroUI

/// A search that leaves out most rows at once (docs/beacons.md, "Search"), on a real GTK window under Xvfb (the
/// display of ReadableTextViewTests): in the same update the list holds exactly the beacons that match, in order,
/// and its rows built (those near the screen) show them from the top.
@Suite("Beacon list page: a search leaving most rows out (GTK, Xvfb)", .serialized)
@MainActor
struct BeaconListSearchPageTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    func ranged(major: UInt16, minor: UInt16, distance: Double) -> RangedBeacon {
        rangedBeacon(uuid: uuid, major: major, minor: minor, distance: distance)
    }

    /// The identities of the list box's rows, top first, as GTK holds them.
    func shownOrder(_ page: BeaconListPage) -> [BeaconIdentity?] {
        (0..<page.shownRows).map { i in
            page.identity(
                of: gtk_list_box_get_row_at_index(cast(page.list), Int32(i)).map { UnsafeMutableRawPointer($0) })
        }
    }

    /// What the built rows should show: the listed beacons at their places.
    func expectedRows(_ page: BeaconListPage, _ order: [BeaconIdentity]) -> [BeaconIdentity?] {
        Array(order[page.first..<min(page.first + page.shownRows, order.count)]).map { Optional($0) }
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func theRowsThatMatchAreOnTopAtOnceAndTheOthersGoAfter() throws {
        try ReadableTextViewTests.gtk()
        // 200 beacons, majors 1 to 4, at distances that interleave the majors in the nearest-first order.
        var beacons: [RangedBeacon] = []
        for i in 0..<200 {
            beacons.append(ranged(major: UInt16(i % 4 + 1), minor: UInt16(i / 4 + 1), distance: 1 + Double(i) * 0.1))
        }
        let snapshot = RangingSnapshot(time: 1, beacons: beacons)
        var builder = BeaconListBuilder(localize: .english)
        let page = BeaconListPage()
        let window = try #require(gtk_window_new(GTK_WINDOW_TOPLEVEL))
        defer { gtk_widget_destroy(window) }
        gtk_window_set_default_size(cast(window), 500, 700)
        gtk_container_add(cast(window), page.root)
        gtk_widget_show_all(window)
        let everything = builder.update(snapshot: snapshot, catalog: CatalogIndex(), state: .scanning)
        page.show(everything)
        ReadableTextViewTests.runMainLoop(for: 0.5)
        try #require(page.listedRows == 200)
        // Only the rows near the screen are built: three screenfuls at most, far fewer than the 200 listed.
        #expect(page.shownRows > 0 && page.shownRows < 100, "\(page.shownRows) rows built for 200 beacons")
        #expect(shownOrder(page) == expectedRows(page, everything.order))

        // "3/": the 50 beacons of major 3 (titled 3/1 … 3/50), every fourth row.
        let filtered = builder.update(
            snapshot: snapshot, catalog: CatalogIndex(), state: .scanning, query: SearchQuery("3/"))
        #expect(filtered.order.count == 50)
        page.show(filtered)
        // In the same update: the list holds the 50 that match, nearest first, and the rows on screen show them.
        #expect(page.displayed == filtered.order)
        #expect(page.first == 0)
        let atOnce = shownOrder(page)
        let onScreen = Int(gtk_adjustment_get_page_size(page.adjustment) / page.rowHeight)
        #expect(onScreen > 5 && atOnce.count >= onScreen)
        #expect(Array(atOnce.prefix(onScreen)) == filtered.order.prefix(onScreen).map { Optional($0) })
        // Then every row built shows its beacon, and no row is left of a beacon left out.
        ReadableTextViewTests.runMainLoop(for: 0.3)
        #expect(shownOrder(page) == expectedRows(page, filtered.order))
        #expect(shownOrder(page).allSatisfy { id in id.map { filtered.positions[$0] != nil } ?? false })

        // The search emptied: every beacon comes back, nearest first.
        let all = builder.update(snapshot: snapshot, catalog: CatalogIndex(), state: .scanning)
        page.show(all)
        ReadableTextViewTests.runMainLoop(for: 0.3)
        page.refresh()
        #expect(page.listedRows == 200 && page.displayed == all.order)
        #expect(Array(shownOrder(page).prefix(20)) == all.order.prefix(20).map { Optional($0) })
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func withASearchTypedRowsHoldStillUnderThePointer() throws {
        try ReadableTextViewTests.gtk()
        func snapshot(reversed: Bool) -> RangingSnapshot {
            var beacons: [RangedBeacon] = []
            for i in 0..<20 {
                let d = reversed ? 10 - Double(i) * 0.4 : 1 + Double(i) * 0.4
                beacons.append(ranged(major: UInt16(i % 4 + 1), minor: UInt16(i / 4 + 1), distance: d))
            }
            return RangingSnapshot(time: 1, beacons: beacons.sorted { ($0.distance ?? 0) < ($1.distance ?? 0) })
        }
        var builder = BeaconListBuilder(localize: .english)
        let page = BeaconListPage()
        let window = try #require(gtk_window_new(GTK_WINDOW_TOPLEVEL))
        defer { gtk_widget_destroy(window) }
        gtk_window_set_default_size(cast(window), 500, 700)
        gtk_container_add(cast(window), page.root)
        gtk_widget_show_all(window)
        page.show(builder.update(snapshot: snapshot(reversed: false), catalog: CatalogIndex(), state: .scanning))
        ReadableTextViewTests.runMainLoop { page.shownRows == 20 }
        #expect(page.listedRows == 20)
        // The pointer rests on the list while "3/" is typed: the rows it leaves out go at once all the same.
        page.pointerInside = true
        let query = SearchQuery("3/")
        let first = builder.update(
            snapshot: snapshot(reversed: false), catalog: CatalogIndex(), state: .scanning, query: query)
        page.show(first)
        #expect(shownOrder(page) == first.order.map { Optional($0) })
        // Same search, the beacons' order reversed: the rows hold still under the pointer.
        let moved = builder.update(
            snapshot: snapshot(reversed: true), catalog: CatalogIndex(), state: .scanning, query: query)
        #expect(moved.order == first.order.reversed())
        page.show(moved)
        #expect(shownOrder(page) == first.order.map { Optional($0) })
        // The pointer leaves (and the grace passes): the list takes the new order.
        page.pointerInside = false
        page.show(moved)
        #expect(shownOrder(page) == moved.order.map { Optional($0) })
    }
}
