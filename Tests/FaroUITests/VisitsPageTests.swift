import CGtk
import FaroApp
import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroUI

/// "Lugares visitados" lists its first screen before its first frame and the rest after it (docs/visits.md), on a
/// real GTK window under Xvfb (the display of ReadableTextViewTests): rows are a pool updated in place, added and
/// removed only at the end.
@Suite("Visits page rows (GTK, Xvfb)", .serialized)
@MainActor
struct VisitsPageTests {
    /// Visits kept in memory in the order the profile store gives them (newest first).
    final class Visits: VisitHistory {
        var entries: [VisitEntry] = []
        func visits(limit: Int) -> [VisitEntry] { Array(entries.prefix(limit)) }
        func clearVisits() throws(ProfileStoreError) { entries = [] }
    }

    static func visit(_ id: Int64, at time: Double) -> VisitEntry {
        let identity = BeaconIdentity(uuid: BeaconUUID(high: 1, low: 1), major: 1, minor: UInt16(id % 400 + 1))
        return VisitEntry(
            id: id,
            place: CatalogPlace(
                identity: identity, cliente: "Negocio \(id)", titulo: "Lugar \(id)", url: "https://example.com/\(id)"),
            enteredAt: time, leftAt: time + 300, closest: 2)
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func firstScreenFirstThenTheRestAndListingAnewInPlace() throws {
        try ReadableTextViewTests.gtk()
        let now = Date().timeIntervalSince1970
        let history = Visits()
        // 600 visits, one every 20 minutes, newest first: the page lists the latest 500 over 7 days.
        history.entries = (0..<600).map { Self.visit(Int64(600 - $0), at: now - 3600 - Double($0) * 1200) }
        let days = Set(history.entries.prefix(500).map { VisitsPage.dayHeading($0.enteredAt) }).count
        let page = VisitsPage(history: history)
        let window = try #require(gtk_window_new(GTK_WINDOW_TOPLEVEL))
        defer { gtk_widget_destroy(window) }
        gtk_window_set_default_size(cast(window), 500, 700)
        gtk_container_add(cast(window), page.root)
        // Shown: the page reads its visits when it is mapped, and lists the first screen at once.
        gtk_widget_show_all(window)
        #expect(page.shownRows == VisitsPage.firstScreen, "rows built before the first frame: \(page.shownRows)")
        #expect(page.rowName(0) == VisitsPage.dayHeading(history.entries[0].enteredAt))
        #expect(page.rowName(1)?.hasPrefix("Lugar 600, Negocio 600, ") == true, "\(page.rowName(1) ?? "")")
        ReadableTextViewTests.runMainLoop { page.visitRows == 500 }
        #expect(page.visitRows == 500)
        #expect(page.shownRows == 500 + days, "500 visits under \(days) headings: \(page.shownRows) rows")

        // A new visit: listed anew in place, the first screen first, no row inserted above the others.
        history.entries.insert(Self.visit(601, at: now - 600), at: 0)
        gtk_widget_hide(page.root)
        gtk_widget_show(page.root)
        #expect(page.rowName(1)?.hasPrefix("Lugar 601, Negocio 601, ") == true, "\(page.rowName(1) ?? "")")
        #expect(page.rowName(2)?.hasPrefix("Lugar 600, ") == true)
        #expect(page.shownRows == 500 + days, "rows are updated in place: \(page.shownRows)")
        ReadableTextViewTests.runMainLoop { page.visitRows == 500 }
        let daysNow = Set(history.entries.prefix(500).map { VisitsPage.dayHeading($0.enteredAt) }).count
        ReadableTextViewTests.runMainLoop { page.shownRows == 500 + daysNow }
        #expect(page.shownRows == 500 + daysNow)
        #expect(page.rowName(Int32(500 + daysNow - 1))?.hasPrefix("Lugar 102, ") == true)

        // Shown again with nothing new: the rows stay as they are.
        gtk_widget_hide(page.root)
        gtk_widget_show(page.root)
        #expect(page.visitRows == 500 && page.shownRows == 500 + daysNow)

        // Emptied: every row goes, from the end, after the first frame.
        history.entries = []
        gtk_widget_hide(page.root)
        gtk_widget_show(page.root)
        ReadableTextViewTests.runMainLoop { page.shownRows == 0 }
        #expect(page.shownRows == 0 && page.visitRows == 0)
    }

    /// Real key presses (xdotool on the Xvfb display, through GTK's key bindings) walk the visits and never stop on a
    /// day's heading, which screen readers still read as a heading (docs/keyboard.md).
    @Test(
        .enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)),
        .enabled(if: RequiredTool.xdotool.shouldRun, Comment(rawValue: RequiredTool.xdotool.reason)))
    func theKeysGoFromVisitToVisitPastTheDayHeadings() throws {
        try ReadableTextViewTests.gtk()
        let now = Date().timeIntervalSince1970
        let history = Visits()
        // Two visits a day over three days: a heading before each pair.
        history.entries = (0..<6).map { (i: Int) -> VisitEntry in
            let day = Double(i / 2) * 86_400
            return Self.visit(Int64(6 - i), at: now - day - Double(i % 2))
        }
        try RequiredTool.xdotool.require()
        let page = VisitsPage(history: history)
        let window = try #require(gtk_window_new(GTK_WINDOW_TOPLEVEL))
        defer { gtk_widget_destroy(window) }
        gtk_window_set_default_size(cast(window), 500, 700)
        gtk_container_add(cast(window), page.root)
        gtk_widget_show_all(window)
        ReadableTextViewTests.runMainLoop { page.visitRows == 6 && gtk_widget_get_mapped(window) != 0 }
        // No window manager on this display: the window takes the keyboard focus itself.
        gdk_window_focus(gtk_widget_get_window(window), guint32(GDK_CURRENT_TIME))
        ReadableTextViewTests.runMainLoop { gtk_window_is_active(cast(window)) != 0 }
        #expect(gtk_window_is_active(cast(window)) != 0)
        #expect(page.shownRows == 9)
        let headings: [Int32] = [0, 3, 6]
        #expect(headings.map { page.rowName($0) } == (0..<3).map { VisitsPage.dayHeading(now - Double($0) * 86_400) })
        #expect(headings.allSatisfy { page.rowRole($0) == ATK_ROLE_HEADING })
        #expect(page.rowRole(1) == ATK_ROLE_LIST_ITEM)

        /// Presses a key on the display's keyboard (xdotool, through the X server) and waits until GTK has handled it
        /// (the focus moved, or half a second passed); the focused row's title.
        let display = String(cString: gdk_display_get_name(gdk_display_get_default()))
        func press(_ key: String) throws -> String? {
            let before = page.focusedRowName
            let r = try ChildProcess.run(
                "/usr/bin/xdotool", ["key", "--clearmodifiers", key], environment: ["DISPLAY": display], timeout: 10)
            try #require(r.status == 0, "\(r.stderr)")
            let end = Date().addingTimeInterval(0.5)
            ReadableTextViewTests.runMainLoop { page.focusedRowName != before || Date() > end }
            return page.focusedRowName.map { String($0.prefix { $0 != "," }) }
        }
        // Tab enters the list on the newest visit, not on "Hoy".
        var entered: String?
        for _ in 0..<6 where entered == nil { entered = try press("Tab") }
        #expect(entered == "Lugar 6", "Tab entered the list on \(entered ?? "nothing")")
        // Down from each visit lands on the next visit, past "Ayer" and the date; Up comes back the same way.
        let downs = try (0..<3).map { _ in try press("Down") }
        #expect(downs == ["Lugar 5", "Lugar 4", "Lugar 3"])
        #expect(try press("Down") == "Lugar 2")
        #expect(try press("Down") == "Lugar 1")
        let ups = try (0..<3).map { _ in try press("Up") }
        #expect(ups == ["Lugar 2", "Lugar 3", "Lugar 4"])
        // Home and End go to the first and last visits; Page Up from the last goes to a visit.
        #expect(try press("Home") == "Lugar 6")
        #expect(try press("End") == "Lugar 1")
        #expect(try press("Prior")?.hasPrefix("Lugar ") == true)
    }
}
