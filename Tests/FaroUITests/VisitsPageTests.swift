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
}
