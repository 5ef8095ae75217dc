import CGtk
import FaroApp
import FaroCore
import FaroGLib
import FaroTestSupport
import Foundation
import Testing

@testable import FaroUI

/// The beacon list builds rows only near the screen, from a pool it binds again (docs/beacons.md, "The list"), on
/// a real GTK window under Xvfb (the display of ReadableTextViewTests), fed through the page's own `show(_:)` with
/// the session's `BeaconListBuilder`: a crowd that comes and goes neither grows the rows nor destroys any, and each
/// row built shows (and is named after) the beacon at its place, after a scroll, a new order, and the keys.
@Suite("Beacon list page: a bounded pool of rows (GTK, Xvfb)", .serialized)
@MainActor
struct BeaconListWindowTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)

    func ranged(major: UInt16, minor: UInt16, distance: Double) -> RangedBeacon {
        rangedBeacon(uuid: uuid, major: major, minor: minor, distance: distance)
    }

    func snapshot(_ beacons: [RangedBeacon]) -> RangingSnapshot {
        RangingSnapshot(time: 1, beacons: beacons.sorted { ($0.distance ?? 0) < ($1.distance ?? 0) })
    }

    /// A 500×700 window holding the page.
    func window(_ page: BeaconListPage) throws -> UnsafeMutablePointer<GtkWidget> {
        let window = try #require(gtk_window_new(GTK_WINDOW_TOPLEVEL))
        gtk_window_set_default_size(cast(window), 500, 700)
        gtk_container_add(cast(window), page.root)
        gtk_widget_show_all(window)
        return window
    }

    /// The list box's rows, top first.
    func rows(_ page: BeaconListPage) -> [UnsafeMutablePointer<GtkListBoxRow>] {
        (0..<page.shownRows).compactMap { gtk_list_box_get_row_at_index(cast(page.list), Int32($0)) }
    }

    func accessibleName<T>(_ row: UnsafeMutablePointer<T>) -> String {
        atk_object_get_name(gtk_widget_get_accessible(cast(row))).map { String(cString: $0) } ?? ""
    }

    /// The most rows the window may hold: the screen and a screenful either side (and the rows cut at the edges),
    /// from the scrolled window's page and a row's height as GTK laid them out.
    func bound(_ page: BeaconListPage) throws -> Int {
        let pageSize = gtk_adjustment_get_page_size(page.adjustment)
        let first = try #require(rows(page).first)
        let height = Double(gtk_widget_get_allocated_height(cast(first)))
        try #require(pageSize > 100 && height > 10, "laid out: page \(pageSize), row \(height)")
        return Int((3 * pageSize / height).rounded(.up)) + 2
    }

    /// Every row built shows the beacon at its place: its accessible name is that beacon's, and the rows not built
    /// keep their height above and below.
    func expectRowsMatch(_ page: BeaconListPage, _ update: BeaconListUpdate, _ context: String) {
        let built = rows(page)
        #expect(!built.isEmpty, "\(context): no rows")
        for (i, row) in built.enumerated() {
            let index = page.first + i
            guard index < page.displayed.count, let model = update.row(page.displayed[index])?.model else {
                Issue.record("\(context): row \(i) past the list")
                continue
            }
            #expect(accessibleName(row) == model.accessibleName, "\(context): row \(index)")
            #expect(page.identity(of: UnsafeMutableRawPointer(row)) == model.identity, "\(context): row \(index)")
        }
        let height = Double(gtk_widget_get_allocated_height(cast(built[0])))
        let above = Double(gtk_widget_get_allocated_height(page.above))
        #expect(abs(above - Double(page.first) * height) < 1 || page.first == 0, "\(context): \(above) px above")
        let upper = gtk_adjustment_get_upper(page.adjustment)
        #expect(abs(upper - Double(page.displayed.count) * height) < 2, "\(context): \(upper) px for the whole list")
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func aChurnOf300LeavesTheRowsBoundedAndDestroysNone() throws {
        try ReadableTextViewTests.gtk()
        var builder = BeaconListBuilder(localize: .english)
        let page = BeaconListPage()
        let window = try window(page)
        defer { gtk_widget_destroy(window) }
        let crowd = (0..<40).map { ranged(major: 1, minor: UInt16($0 + 1), distance: 2 + Double($0) * 0.2) }
        page.show(builder.update(snapshot: snapshot(crowd), catalog: CatalogIndex(), state: .scanning))
        ReadableTextViewTests.runMainLoop(for: 0.5)
        let limit = try bound(page)
        // Every row widget the list box ever holds, and how many of them GTK destroyed.
        var seen = Set<UnsafeMutableRawPointer>()
        var destroyed = 0
        func watch() {
            for row in rows(page) where seen.insert(UnsafeMutableRawPointer(row)).inserted {
                Signal.connect(row, "destroy") { destroyed += 1 }
            }
        }
        watch()
        // 300 short-lived beacons, four a tick, each listed for 30 ticks, nearer than the crowd (on top, where the
        // rows are on screen).
        var most = 0
        var last: BeaconListUpdate?
        for tick in 0..<(75 + 30) {
            let living = (0..<300).filter { $0 / 4 <= tick && tick < $0 / 4 + 30 }
            let churn = living.map { ranged(major: 2, minor: UInt16($0 + 1), distance: 0.5 + Double($0 % 7) * 0.2) }
            let update = builder.update(snapshot: snapshot(crowd + churn), catalog: CatalogIndex(), state: .scanning)
            page.show(update)
            ReadableTextViewTests.runMainLoop(for: 0.02)
            watch()
            most = max(most, page.shownRows)
            #expect(page.listedRows == 40 + living.count)
            last = update
        }
        ReadableTextViewTests.runMainLoop(for: 0.3)
        let settled = try #require(last)
        #expect(page.listedRows == 40 && page.displayed == settled.order)
        #expect(most <= limit, "\(most) rows built at once, bound \(limit)")
        #expect(seen.count <= limit, "\(seen.count) row widgets used for 340 beacons, bound \(limit)")
        #expect(destroyed == 0, "rows destroyed while the page lives")
        expectRowsMatch(page, settled, "after the churn")
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func rowsShowTheBeaconAtTheirPlaceAfterAScrollAndANewOrder() throws {
        try ReadableTextViewTests.gtk()
        var builder = BeaconListBuilder(localize: .english)
        let page = BeaconListPage()
        let window = try window(page)
        defer { gtk_widget_destroy(window) }
        func beacons(reversed: Bool) -> [RangedBeacon] {
            (0..<300).map { i in
                ranged(major: 3, minor: UInt16(i + 1), distance: reversed ? 61 - Double(i) * 0.2 : 1 + Double(i) * 0.2)
            }
        }
        let nearFirst = builder.update(snapshot: snapshot(beacons(reversed: false)), catalog: .init(), state: .scanning)
        page.show(nearFirst)
        ReadableTextViewTests.runMainLoop(for: 0.5)
        let limit = try bound(page)
        #expect(page.shownRows <= limit)
        expectRowsMatch(page, nearFirst, "at the top")

        // Scrolled to the middle: the rows there are built and show the beacons at those places.
        let adjustment = try #require(page.adjustment)
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) / 2)
        ReadableTextViewTests.runMainLoop(for: 0.3)
        #expect(page.first > 100, "window from \(page.first)")
        #expect(page.shownRows <= limit)
        expectRowsMatch(page, nearFirst, "scrolled to the middle")

        // A row there is selected (a click); the order turns over: every row shows its new beacon, and the
        // selection stays with the beacon, not with the row widget or the screen position.
        let rowsThere = rows(page)
        let clicked = rowsThere[rowsThere.count / 2]
        let chosen = try #require(page.identity(of: UnsafeMutableRawPointer(clicked)))
        gtk_list_box_select_row(cast(page.list), clicked)
        #expect(page.selected == chosen)
        let farFirst = builder.update(snapshot: snapshot(beacons(reversed: true)), catalog: .init(), state: .scanning)
        page.show(farFirst)
        ReadableTextViewTests.runMainLoop(for: 0.3)
        #expect(page.displayed == farFirst.order)
        expectRowsMatch(page, farFirst, "after the new order")
        let index = try #require(page.displayed.firstIndex(of: chosen))
        if index >= page.first, index < page.first + page.shownRows {
            #expect(page.selected == chosen)
        } else {
            #expect(page.selected == nil)
        }
        // Scrolled back to the top: still one row selected, the chosen beacon's, wherever it is built.
        gtk_adjustment_set_value(adjustment, 0)
        ReadableTextViewTests.runMainLoop(for: 0.3)
        expectRowsMatch(page, farFirst, "back at the top")
        #expect(page.selected == nil || page.selected == chosen)
    }

    /// Sends a key press to the window, as the X server would (GTK passes it to the focused widget and its parents).
    func press(_ window: UnsafeMutablePointer<GtkWidget>, _ keyval: Int32) {
        guard let event = gdk_event_new(GDK_KEY_PRESS) else { return }
        event.pointee.key.keyval = guint(keyval)
        if let gdkWindow = gtk_widget_get_window(window) {
            // The event holds a reference (gdk_event_free drops it).
            g_object_ref(UnsafeMutableRawPointer(gdkWindow))
            event.pointee.key.window = gdkWindow
        }
        event.pointee.key.send_event = 1
        gtk_propagate_event(window, event)
        gdk_event_free(event)
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func theKeysWalkTheWholeListPastTheRowsBuilt() throws {
        try ReadableTextViewTests.gtk()
        var builder = BeaconListBuilder(localize: .english)
        let page = BeaconListPage()
        let window = try window(page)
        defer { gtk_widget_destroy(window) }
        let beacons = (0..<200).map { ranged(major: 4, minor: UInt16($0 + 1), distance: 1 + Double($0) * 0.2) }
        let update = builder.update(snapshot: snapshot(beacons), catalog: .init(), state: .scanning)
        page.show(update)
        ReadableTextViewTests.runMainLoop(for: 0.5)
        let built = page.shownRows
        #expect(built < 100)
        func focusedIndex() -> Int? {
            guard let focus = gtk_window_get_focus(cast(window)),
                let id = page.identity(of: UnsafeMutableRawPointer(focus))
            else { return nil }
            #expect(
                accessibleName(focus) == update.row(id)?.model.accessibleName, "the focused row's name")
            return page.displayed.firstIndex(of: id)
        }
        // The focus on the first row (as Tab gives it), then Down past the last row built at first.
        let top = try #require(rows(page).first)
        gtk_widget_grab_focus(cast(top))
        ReadableTextViewTests.runMainLoop(for: 0.05)
        #expect(focusedIndex() == 0)
        for step in 1...(built + 5) {
            press(window, GDK_KEY_Down)
            ReadableTextViewTests.runMainLoop(for: 0.01)
            #expect(focusedIndex() == step, "Down \(step) times")
            #expect(page.selected == page.displayed[step])
        }
        #expect(page.first > 0, "the window followed the focus")
        press(window, GDK_KEY_End)
        ReadableTextViewTests.runMainLoop(for: 0.05)
        #expect(focusedIndex() == 199)
        let adjustment = try #require(page.adjustment)
        #expect(
            gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment)
                >= gtk_adjustment_get_upper(adjustment) - 1, "scrolled to the bottom")
        press(window, GDK_KEY_Page_Up)
        ReadableTextViewTests.runMainLoop(for: 0.05)
        let afterPageUp = try #require(focusedIndex())
        #expect(afterPageUp < 199 - 5)
        press(window, GDK_KEY_Up)
        ReadableTextViewTests.runMainLoop(for: 0.05)
        #expect(focusedIndex() == afterPageUp - 1)
        // Scrolled away with the pointer: no row shows the focus for another beacon; back, the row has it again.
        let focusedBeacon = page.displayed[afterPageUp - 1]
        gtk_adjustment_set_value(adjustment, 0)
        ReadableTextViewTests.runMainLoop(for: 0.3)
        let focus = gtk_window_get_focus(cast(window))
        #expect(focus == page.list || page.identity(of: focus.map { UnsafeMutableRawPointer($0) }) == focusedBeacon)
        press(window, GDK_KEY_Down)
        ReadableTextViewTests.runMainLoop(for: 0.05)
        #expect(focusedIndex() == afterPageUp, "Down goes on from the focused beacon")
        press(window, GDK_KEY_Home)
        ReadableTextViewTests.runMainLoop(for: 0.05)
        #expect(focusedIndex() == 0)
        #expect(gtk_adjustment_get_value(adjustment) == 0)
    }
}
