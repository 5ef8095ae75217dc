internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// "Lugares visitados" (`Resources/ui/visits-page.ui`; docs/visits.md): the visits, newest first, under a heading
/// per day (Hoy, Ayer, then the date in the user's locale), in local time. A click opens the place's site, fresh, as
/// from the beacon list. "Borrar historial" asks first.
@MainActor
final class VisitsPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let template: Template
    /// The list box and its rows are internal, not private: the keyboard's part of the page
    /// (`VisitsPage+Keys.swift`) moves along them.
    let list: UnsafeMutablePointer<GtkWidget>
    private let history: any VisitHistory
    /// The list's rows, top first; row i shows `items[i]` once `updated > i`.
    var rows: [VisitRow] = []
    private var places: [UnsafeMutableRawPointer: CatalogPlace] = [:]
    /// A visit was chosen.
    var onOpen: (CatalogPlace) -> Void = { _ in }
    /// The search bar's text: only the visits that match it are listed (docs/beacons.md, "Search"; among the
    /// `shown` latest).
    var query = SearchQuery.everything {
        didSet { if generation > 0, query != oldValue { reload() } }
    }
    /// The empty list's label, and what it says with no visits (with a search: "Sin resultados para «…»").
    private let empty: UnsafeMutablePointer<GtkWidget>
    private let noVisits: String
    /// How many visits the page lists (a year of visits is 50,000 rows; the page shows the latest).
    static let shown = 500
    /// Rows brought up to date before the page's first frame (more than a tall window shows), then per idle callback.
    static let firstScreen = 30
    static let perBatch = 25
    /// What the list shows, top first: the days' headings and the visits.
    private var items: [VisitItem] = []
    /// How many rows, from the top, show `items` (the rest still show an earlier listing).
    private var updated = 0
    /// Which reading of the visits is listed.
    private var generation = 0
    /// The visits listed, and the day they were listed on (for "Hoy" and "Ayer").
    private var listed: [VisitEntry] = []
    /// Whether the history held any visit when last read without a search ("Borrar historial" is offered then).
    private var hasVisits = true
    private var listedOn = ""
    /// When the page last began to read and list its visits, or for the first listing when it began to be built (it
    /// is built when first shown), with the main thread's CPU time and wait for a core then (to tell the page's own
    /// work from a busy machine); and how many visit rows it lists now: what `FARO_TIMINGS` reports at the first
    /// frame that shows them.
    private(set) var reloadStarted: TimingReport.Mark
    private(set) var visitRows = 0
    /// The rows the list box holds (headings included), counted by GTK.
    var shownRows: Int {
        guard let children = gtk_container_get_children(cast(list)) else { return 0 }
        defer { g_list_free(children) }
        return Int(g_list_length(children))
    }
    /// The accessible name of the list's row at `index` (what a screen reader says, and what tests read).
    func rowName(_ index: Int32) -> String? {
        guard let row = gtk_list_box_get_row_at_index(cast(list), index),
            let name = atk_object_get_name(gtk_widget_get_accessible(cast(row)))
        else { return nil }
        return String(cString: name)
    }

    init(history: any VisitHistory) {
        reloadStarted = TimingReport.Mark.now()
        self.history = history
        template = Template("visits-page")
        root = template.widget("root")
        list = template.widget("list")
        Relayout.whenShown(list)
        empty = template.widget("empty")
        noVisits = gtk_label_get_text(cast(empty)).map { String(cString: $0) } ?? ""
        gtk_list_box_set_placeholder(cast(list), empty)
        FormDialog.nameAfterLabel(template.widget("clear"))
        Signal.connect(
            list, "row-activated",
            pointer: { [weak self] row in
                guard let self, let row, let place = self.places[row] else { return }
                self.onOpen(place)
            })
        // The day headings are no stop of the keyboard (docs/keyboard.md): GtkListBox walks every shown row with
        // the arrows and Tab, so both are answered here, over the visits only.
        Signal.connect(list, "move-cursor", ints: { [weak self] step, count in self?.moveCursor(step, count) })
        Signal.connect(list, "focus", intReturning: { [weak self] direction in self?.focus(direction) ?? false })
        Signal.connect(template.widget("clear"), "clicked") { [weak self] in self?.confirmClear() }
        // Read each time the page is shown: visits are added while the window is elsewhere.
        Signal.connect(root, "map") { [weak self] in self?.reload() }
    }

    /// Reads the latest visits and lists them. The rows are a pool, all alike (a heading or a visit), updated in
    /// place: only the first screen's rows are brought up to date before the page's first frame, the rest a batch
    /// per idle callback after it, and rows are only ever added or removed at the end. Building 500 rows at once, or
    /// inserting new ones above 500 others (GTK restyles every row below an insertion), kept the page from showing
    /// for a quarter of a second and more (docs/visits.md).
    func reload() {
        if generation > 0 { reloadStarted = TimingReport.Mark.now() }
        // A search reads the matching visits of the whole history, not only of the latest screenful.
        let visits =
            query.isEmpty
            ? history.visits(limit: VisitsPage.shown) : history.visits(matching: query, limit: VisitsPage.shown)
        if query.isEmpty { hasVisits = !visits.isEmpty }
        let emptyText = query.isEmpty ? noVisits : SearchResults.emptyTexts(query, localize: I18n.localizer).title
        gtk_label_set_text(cast(empty), emptyText)
        // GTK keeps a list box's placeholder out of the accessibility tree: the list says it in its description.
        setAccessibleDescription(list, visits.isEmpty ? emptyText : "")
        // Shown again with nothing new (and still the same day, for "Hoy" and "Ayer"): the rows stay.
        let today = VisitsPage.today()
        if generation > 0, visits == listed, today == listedOn, updated == items.count, rows.count == items.count {
            return
        }
        listed = visits
        listedOn = today
        generation += 1
        items = VisitsPage.items(visits)
        updated = 0
        visitRows = 0
        updateSome(VisitsPage.firstScreen)
        gtk_widget_set_sensitive(template.widget("clear"), hasVisits ? 1 : 0)
        if updated < items.count || rows.count > items.count { afterNextFrame(generation) }
    }

    /// The headings and visits, newest first: a heading before the first visit of each day.
    static func items(_ visits: [VisitEntry]) -> [VisitItem] {
        var items: [VisitItem] = []
        var day: String?
        let headings = DayHeadings()
        for visit in visits {
            let heading = headings.heading(visit.enteredAt)
            if heading != day {
                day = heading
                items.append(.heading(heading))
            }
            items.append(.visit(visit, day: heading))
        }
        return items
    }

    /// Brings the next `count` rows up to date (adding rows at the end when there are too few), then removes up to
    /// `count` rows left over at the end.
    private func updateSome(_ count: Int) {
        let end = min(updated + count, items.count)
        while updated < end {
            if updated == rows.count { rows.append(VisitRow(in: list)) }
            let row = rows[updated]
            row.show(items[updated])
            let key = UnsafeMutableRawPointer(row.row)
            if case .visit(let visit, _) = items[updated] {
                places[key] = visit.place
                visitRows += 1
            } else {
                places[key] = nil
            }
            updated += 1
        }
        guard updated == items.count else { return }
        for row in rows.suffix(max(0, min(count, rows.count - items.count))) {
            places[UnsafeMutableRawPointer(row.row)] = nil
            gtk_container_remove(cast(list), row.row)
        }
        rows.removeLast(max(0, min(count, rows.count - items.count)))
    }

    /// Starts `updateRest` once the page's next frame (the one with the first screen) is painted: a tick callback
    /// comes at the start of that frame, and the idle it queues runs after the frame is done.
    private func afterNextFrame(_ listing: Int) {
        typealias Tick = GLibClosure<Void, Void>
        let tick:
            @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean =
                { _, _, data in
                    if let data { Tick.call(data, ()) }
                    return 0
                }
        let start = Tick.retained { [weak self] in
            MainActor.assumeIsolated { self?.updateRest(listing) }
        }
        gtk_widget_add_tick_callback(list, tick, start, Tick.destroyNotify)
    }

    /// A batch of rows per idle callback until every row shows this listing (a newer listing takes over).
    private func updateRest(_ listing: Int) {
        MainThread.run { [weak self] in
            guard let self, self.generation == listing else { return }
            self.updateSome(VisitsPage.perBatch)
            if self.updated < self.items.count || self.rows.count > self.items.count { self.updateRest(listing) }
        }
    }

    private func confirmClear() {
        let view = Template("confirm-dialog")
        let confirm = view.widget("dialog")
        gtk_window_set_transient_for(cast(confirm), cast(gtk_widget_get_toplevel(root)))
        gtk_window_set_title(cast(confirm), I18n.tr("Clear history"))
        setAccessibleName(confirm, I18n.tr("Clear history"))
        gtk_label_set_text(
            cast(view.widget("question")),
            I18n.tr("Delete every visited place from this device? This cannot be undone."))
        gtk_button_set_label(cast(view.widget("accept")), I18n.tr("_Clear history"))
        for id in ["cancel", "accept"] { FormDialog.nameAfterLabel(view.widget(id)) }
        Signal.connect(
            confirm, "response",
            int: { [weak self] response in
                gtk_widget_destroy(confirm)
                guard let self, response == GTK_RESPONSE_ACCEPT.rawValue else { return }
                do throws(ProfileStoreError) { try self.history.clearVisits() } catch {
                    FeedbackDialogs.problem(
                        parent: self.root, title: I18n.tr("The history was not cleared"),
                        detail: error.problem.message(I18n.localizer))
                }
                self.reload()
            })
        gtk_window_present(cast(confirm))
    }

    /// "Hoy", "Ayer", or the local date with the locale's month name ("2 dic 2026").
    static func dayHeading(_ seconds: Double) -> String { DayHeadings().heading(seconds) }

    /// Today's local date ("2026-12-04").
    static func today() -> String {
        guard let now = g_date_time_new_now_local(), let text = g_date_time_format(now, "%Y-%m-%d") else { return "" }
        defer {
            g_free(text)
            g_date_time_unref(now)
        }
        return String(cString: text)
    }

    /// The local time of day ("17:40").
    static func clock(_ seconds: Double) -> String {
        guard let time = g_date_time_new_from_unix_local(gint64(seconds)), let text = g_date_time_format(time, "%H:%M")
        else { return "" }
        defer {
            g_free(text)
            g_date_time_unref(time)
        }
        return String(cString: text)
    }
}
