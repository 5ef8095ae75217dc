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
    private let list: UnsafeMutablePointer<GtkWidget>
    private let history: any VisitHistory
    /// The list's rows, top first; row i shows `items[i]` once `updated > i`.
    private var rows: [VisitRow] = []
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

    // MARK: the keyboard over the visits

    /// Whether each row of the list, top first, shows a day's heading.
    private var headings: [Bool] { rows.map { $0.isHeading ?? true } }

    /// The row that has the focus (or the cursor), by index.
    private var focusedIndex: Int? {
        guard let child = gtk_container_get_focus_child(cast(list)) else { return nil }
        let index = Int(gtk_list_box_row_get_index(cast(child)))
        return rows.indices.contains(index) ? index : nil
    }

    /// The accessible name of the row that has the keyboard focus (what a screen reader says; tests read it).
    var focusedRowName: String? {
        guard let focus = gtk_window_get_focus(cast(gtk_widget_get_toplevel(list))),
            gtk_widget_get_parent(focus) == list, let name = atk_object_get_name(gtk_widget_get_accessible(focus))
        else { return nil }
        return String(cString: name)
    }

    /// The accessible role of the list's row at `index` (a heading, or a list item for a visit).
    func rowRole(_ index: Int32) -> AtkRole? {
        gtk_list_box_get_row_at_index(cast(list), index).map {
            atk_object_get_role(gtk_widget_get_accessible(cast($0)))
        }
    }

    /// The nearest visit after row `index` (`step` 1) or before it (`step` -1); `index` -1 or `headings.count`
    /// starts from an end. Headings are skipped.
    static func visit(from index: Int, step: Int, headings: [Bool]) -> Int? {
        var i = index + step
        while headings.indices.contains(i) {
            if !headings[i] { return i }
            i += step
        }
        return nil
    }

    /// Up, Down, Page Up, Page Down, Home and End, as GtkListBox moves its cursor, but from visit to visit.
    private func moveCursor(_ step: Int32, _ count: Int32) {
        guard count != 0, let from = focusedIndex else { return }
        let headings = self.headings
        let direction = count < 0 ? -1 : 1
        var target: Int?
        switch GtkMovementStep(rawValue: UInt32(bitPattern: step)) {
        case GTK_MOVEMENT_BUFFER_ENDS:
            target = VisitsPage.visit(from: direction < 0 ? -1 : headings.count, step: -direction, headings: headings)
        case GTK_MOVEMENT_DISPLAY_LINES:
            target = from
            for _ in 0..<abs(Int(count)) {
                guard let next = target.flatMap({ VisitsPage.visit(from: $0, step: direction, headings: headings) })
                else { break }
                target = next
            }
        case GTK_MOVEMENT_PAGES:
            target = pageAway(from: from, direction: direction, headings: headings)
        default:
            return
        }
        GObjectSignal.stopEmission(list, "move-cursor")
        guard let target, target != from else {
            // As GtkListBox does at either end: the focus leaves the list, unless a handler keeps it.
            let way = direction < 0 ? GTK_DIR_UP : GTK_DIR_DOWN
            if gtk_widget_keynav_failed(list, way) == 0, let top = gtk_widget_get_toplevel(list) {
                _ = gtk_widget_child_focus(top, direction < 0 ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD)
            }
            return
        }
        let row = rows[target].row
        gtk_list_box_select_row(cast(list), cast(row))
        gtk_widget_grab_focus(row)
    }

    /// The farthest visit within a page (the scroller's page increment) from row `from`, or the nearest visit past
    /// it when none is that close; the list scrolls by as much as the focus moves, as GtkListBox does.
    private func pageAway(from: Int, direction: Int, headings: [Bool]) -> Int? {
        let adjustment = gtk_list_box_get_adjustment(cast(list))
        let page = adjustment.map { gtk_adjustment_get_page_increment($0) } ?? 100
        let y = { (index: Int) -> Double in
            var allocation = GtkAllocation()
            gtk_widget_get_allocation(self.rows[index].row, &allocation)
            return Double(allocation.y)
        }
        let start = y(from)
        var target: Int?
        var i = from
        while let next = VisitsPage.visit(from: i, step: direction, headings: headings) {
            if target != nil, abs(y(next) - start) > page { break }
            target = next
            i = next
        }
        if let target, let adjustment {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + y(target) - start)
        }
        return target
    }

    /// Tab and the arrows moving the focus into the list or along it (GtkWidget's "focus"): to the selected visit
    /// or the first (last, going back) when entering, then from visit to visit.
    private func focus(_ rawDirection: Int32) -> Bool {
        GObjectSignal.stopEmission(list, "focus")
        let direction = GtkDirectionType(rawValue: UInt32(bitPattern: rawDirection))
        let back = direction == GTK_DIR_UP || direction == GTK_DIR_TAB_BACKWARD
        let forward = direction == GTK_DIR_DOWN || direction == GTK_DIR_TAB_FORWARD
        let headings = self.headings
        var target: Int?
        if let from = focusedIndex {
            if gtk_widget_child_focus(rows[from].row, direction) != 0 { return true }
            if back || forward { target = VisitsPage.visit(from: from, step: back ? -1 : 1, headings: headings) }
        } else if let selected = gtk_list_box_get_selected_row(cast(list)),
            case let index = Int(gtk_list_box_row_get_index(selected)), headings.indices.contains(index),
            !headings[index]
        {
            target = index
        } else {
            target = VisitsPage.visit(from: back ? headings.count : -1, step: back ? -1 : 1, headings: headings)
        }
        if let target { return gtk_widget_child_focus(rows[target].row, direction) != 0 }
        if direction == GTK_DIR_UP || direction == GTK_DIR_DOWN {
            return gtk_widget_keynav_failed(list, direction) != 0
        }
        return false
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
