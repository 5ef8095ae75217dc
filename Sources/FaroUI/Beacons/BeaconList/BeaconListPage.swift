internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The "Beacons" page (`Resources/ui/beacon-list.ui`): the places in range, nearest first, updated in place once a
/// second, with an empty state that says why nothing is listed. Its rows come finished from the session
/// (`BeaconListFeed`, `BeaconRow`). By concern: this file holds the page's state and shows each list;
/// `BeaconListPage+Input.swift` the pointer, touch and keys (press, long press, menus, holding still);
/// `BeaconListPage+Order.swift` the order and the viewport (which rows move and which are brought up to date).
@MainActor
final class BeaconListPage {
    // The state the other files of the page share is internal (Swift's `private` ends at the file); only the page
    // itself touches it.

    let root: UnsafeMutablePointer<GtkWidget>
    /// The page's view, kept for the page's lifetime (its builder holds the objects until the window takes them).
    private let template: Template
    let list: UnsafeMutablePointer<GtkWidget>
    private let emptyTitle: UnsafeMutablePointer<GtkWidget>
    private let emptyDetail: UnsafeMutablePointer<GtkWidget>
    var rows: [BeaconIdentity: BeaconRow] = [:]
    /// The rows in the order the list box holds them (top first).
    var displayed: [BeaconIdentity] = []
    /// The order the last model asked for (nearest first).
    var wanted: [BeaconIdentity] = []
    /// Each row's sort key, by row widget: twice its index in `displayed` (see `arrange`), what the sort function
    /// compares.
    var position: [UnsafeMutableRawPointer: Int] = [:]
    var rowIdentity: [UnsafeMutableRawPointer: BeaconIdentity] = [:]
    private var shownEmptyTitle: String?
    private var shownEmptyDetail: String?
    /// The list's accessible description: the empty state's words while no row is listed (GTK keeps a list box's
    /// placeholder out of the accessibility tree), nothing otherwise.
    private var shownDescription = ""
    var refreshQueued = false
    /// The last list shown: every row's model and revision, rows not built yet included.
    var current: BeaconListUpdate?
    /// Some rows of `current` have no widget yet: rows below the window are built a few at a time from an idle
    /// callback (`buildSome`).
    private var unbuilt = false
    private var buildQueued = false
    /// Rows in the window still to bring up to date, visible ones first (`arrange`, `refreshSome`).
    var stale = RowRefreshQueue<BeaconIdentity>()
    var staleQueued = false
    /// Rows built at once when the list is not laid out yet (about a screenful: each takes ~0.5 ms of template
    /// building, and 40 at once stalled the main loop for 20–30 ms); then per idle callback.
    static let firstRows = 16
    static let rowsPerBatch = 8
    /// Rows of beacons no longer listed that are removed in the update itself; past that, those below the window
    /// are removed from idle callbacks (`dismiss`).
    static let rowsRemovedAtOnce = 16
    /// Rows no longer listed, below every listed row, still in the list box: removed a few per idle callback.
    private var leaving: [BeaconRow] = []
    private var removalQueued = false
    /// Main-thread time per idle callback for bringing the rows around the screen up to date (seconds).
    static let sliceBudget = 0.003
    /// Called when the user activates a row (a single click, or Enter on the focused row).
    var onActivate: ((BeaconIdentity) -> Void)?
    /// One entry of a row's context menu (right click, the Menu key, Shift+F10).
    struct MenuItem {
        var label: String
        var action: @MainActor (BeaconIdentity) -> Void
    }
    /// The rows' context menu.
    var menuItems: [MenuItem] = []
    // MARK: input (BeaconListPage+Input.swift)

    /// The menu on screen (kept until it is hidden).
    var shownMenu: UnsafeMutablePointer<GtkWidget>?
    /// Whether the pointer is over the list: rows then keep their places (docs/beacon-page.md).
    var pointerInside = false
    /// Until when (monotonic seconds) rows keep their places after the pointer left.
    var holdUntil = 0.0
    var releaseTimer: UInt32 = 0
    /// The short grace after the pointer leaves before the list re-sorts.
    static let holdGrace = 0.8
    /// Rows of beacons that left kept at most while the list holds still: past them the list takes its order again
    /// (a pointer left resting on the list while a crowd passes would otherwise keep a row for every beacon gone).
    static let maxHeldDepartedRows = 32

    /// Whether the rows keep their places at this update: while `holding`, unless more than `maxHeldDepartedRows`
    /// rows are of beacons that left.
    static func keepsPlaces(holding: Bool, departedRows: Int) -> Bool {
        holding && departedRows <= maxHeldDepartedRows
    }
    /// The row under the pointer when button 1 went down, and whether GTK activated a row since.
    var pressed: BeaconIdentity?
    var activatedSincePress = false
    /// A long press on a row (touch, or button 1 held) shows the row's context menu, as a right click does. GTK 3
    /// leaves a gesture to whoever made it: the page keeps it for the list's lifetime.
    var longPress: OpaquePointer?

    init() {
        template = Template("beacon-list")
        root = template.widget("root")
        list = template.widget("list")
        emptyTitle = template.widget("empty-title")
        emptyDetail = template.widget("empty-detail")
        gtk_list_box_set_placeholder(cast(list), template.widget("placeholder"))
        // Rows scrolled into view (or uncovered by a taller window) get the order and state they were not given
        // off screen. Deferred to an idle: "changed" comes during size allocation.
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(root))
        Signal.connect(adjustment, "value-changed") { [weak self] in self?.queueRefresh() }
        Signal.connect(adjustment, "changed") { [weak self] in self?.queueRefresh() }
        installSort()
        installInput()
        Relayout.whenShown(list)
    }

    /// Shows every list `feed` publishes, for the page's lifetime.
    func follow(_ feed: BeaconListFeed) {
        feed.observer = { [weak self] update in self?.show(update) }
    }

    /// Shows a new state: rows are added, updated in place, reordered and removed; nothing is rebuilt.
    ///
    /// With a thousand beacons nearly every row changes every second, and GTK 3's list box lays out, restyles and
    /// re-measures every row it is told about: re-sorting the whole list (`gtk_list_box_invalidate_sort`, which
    /// also moves every row's CSS node) and setting every row's labels stalled the main loop for half a second
    /// each second. So the work is kept to the rows on screen and a screenful either side (the window): they
    /// show the new order and values exactly; rows off screen keep their place and what they show until they
    /// are scrolled into view (`refresh()`). Reordering moves only the rows whose place changes, each with
    /// `gtk_list_box_row_changed` (a re-insertion, no CSS node moves); new rows are added at the end and moved
    /// into the window when they belong there, and new rows below the window are built a few at a time
    /// (`buildSome()`). Selection and focus stay with their row widgets.
    ///
    /// The update comes finished from the beacon session's `BeaconListBuilder` (ranging, formatting and comparing
    /// rows happen there): a row is current when its revision is the update's. The rows in the window that are not are brought up to
    /// date those on screen first, in this call, and the others in idle callbacks of a few milliseconds each.
    func show(_ update: BeaconListUpdate) {
        if update.model.emptyTitle != shownEmptyTitle {
            shownEmptyTitle = update.model.emptyTitle
            gtk_label_set_markup(cast(emptyTitle), "<b>" + escapeMarkup(update.model.emptyTitle) + "</b>")
        }
        if update.model.emptyDetail != shownEmptyDetail {
            shownEmptyDetail = update.model.emptyDetail
            gtk_label_set_text(cast(emptyDetail), update.model.emptyDetail)
        }
        let description = update.order.isEmpty ? update.model.emptyTitle + "\n" + update.model.emptyDetail : ""
        if description != shownDescription {
            shownDescription = description
            setAccessibleDescription(list, description)
        }
        // A new search (docs/beacons.md, "Search") takes effect at once: rows it leaves out go even under the
        // pointer; with the same search, rows hold still as ever.
        let searched = update.query != current?.query
        current = update
        let view = viewport(laidOut: displayed.count, count: update.order.count)
        let departed = displayed.reduce(0) { $0 + (update.positions[$1] == nil ? 1 : 0) }
        let hold = !searched && BeaconListPage.keepsPlaces(holding: holding, departedRows: departed)
        // While rows hold still, a beacon that left keeps its row (showing its last values) until the re-sort.
        if !hold, departed > BeaconListPage.rowsRemovedAtOnce {
            dismiss(departed: departed, update: update, window: view.window)
        } else if !hold, departed > 0 {
            for id in displayed where update.positions[id] == nil {
                guard let row = rows.removeValue(forKey: id) else { continue }
                let key = UnsafeMutableRawPointer(row.row)
                rowIdentity[key] = nil
                position[key] = nil
                gtk_container_remove(cast(list), row.row)
            }
            displayed.removeAll { update.positions[$0] == nil }
            renumber()
        }
        let buildNow = displayed.isEmpty ? BeaconListPage.firstRows : view.window.upperBound
        unbuilt = false
        for (i, id) in update.order.enumerated() where rows[id] == nil {
            if i < buildNow { build(id) } else { unbuilt = true }
        }
        wanted = unbuilt ? update.order.filter { rows[$0] != nil } : update.order
        // Holding: the rows stay where they are (new ones were added at the end); only their values change.
        if hold { wanted = displayed }
        arrange(view)
        if unbuilt { queueBuild() }
    }

    /// Many rows leave at once (a search typed, a crowd gone): removing and freeing a row costs GTK about as much as
    /// building one, so removing hundreds in one update stalled the main loop for hundreds of milliseconds. Instead
    /// the rows that stay are put first (or the leaving ones last: whichever moves fewer rows, each a re-insertion),
    /// the leaving rows that would show on screen or near it are removed now, and the others, below every row that
    /// stays, are removed a few at a time from idle callbacks (`removeSome`), bottom first.
    private func dismiss(departed: Int, update: BeaconListUpdate, window: Range<Int>) {
        let staying = displayed.filter { update.positions[$0] != nil }
        let going = displayed.filter { update.positions[$0] == nil }
        if staying.count <= going.count {
            // Keys below every old one (all >= 0), in order: the rows not moved yet keep the list sorted.
            for (j, id) in staying.enumerated() {
                guard let row = rows[id] else { continue }
                position[UnsafeMutableRawPointer(row.row)] = j - staying.count
                gtk_list_box_row_changed(cast(row.row))
            }
        } else {
            // Keys above every old one, in order.
            let top = 2 * displayed.count
            for (k, id) in going.enumerated() {
                guard let row = rows[id] else { continue }
                position[UnsafeMutableRawPointer(row.row)] = top + k
                gtk_list_box_row_changed(cast(row.row))
            }
        }
        var leavingNow: [BeaconRow] = []
        for (k, id) in going.enumerated() {
            guard let row = rows.removeValue(forKey: id) else { continue }
            let key = UnsafeMutableRawPointer(row.row)
            rowIdentity[key] = nil
            // Sorted after every row (`compare`): rows built from now on go in above them.
            position[key] = nil
            if staying.count + k < window.upperBound { leavingNow.append(row) } else { leaving.append(row) }
        }
        for row in leavingNow { gtk_container_remove(cast(list), row.row) }
        displayed = staying
        renumber()
        if !leaving.isEmpty { queueRemoval() }
    }

    private func queueRemoval() {
        guard !removalQueued else { return }
        removalQueued = true
        MainThread.run { [weak self] in
            guard let self else { return }
            self.removalQueued = false
            self.removeSome()
        }
    }

    /// Removes and frees leaving rows, bottom first, for up to `sliceBudget` (at least one row).
    private func removeSome() {
        let start = g_get_monotonic_time()
        while let row = leaving.popLast() {
            gtk_container_remove(cast(list), row.row)
            if Double(g_get_monotonic_time() - start) / 1e6 >= BeaconListPage.sliceBudget { break }
        }
        if !leaving.isEmpty { queueRemoval() }
    }

    /// A new row, filled and added at the end of the list (`arrange` moves it where it belongs).
    private func build(_ id: BeaconIdentity) {
        let row = BeaconRow(identity: id)
        if let (model, revision) = current?.row(id) { row.apply(model, revision: revision) }
        rows[id] = row
        let key = UnsafeMutableRawPointer(row.row)
        rowIdentity[key] = id
        position[key] = 2 * displayed.count
        displayed.append(id)
        gtk_container_add(cast(list), row.row)
    }

    private func queueBuild() {
        guard !buildQueued else { return }
        buildQueued = true
        MainThread.run { [weak self] in
            guard let self else { return }
            self.buildQueued = false
            self.buildSome()
        }
    }

    /// Builds the next few rows not built yet, nearest first: a thousand beacons appearing at once are added over
    /// a second or so of short steps, with frames drawn between them, instead of one long stall.
    private func buildSome() {
        guard unbuilt, let current else { return }
        let laidOut = displayed.count
        var count = 0
        for id in current.order where rows[id] == nil {
            guard count < BeaconListPage.rowsPerBatch else { break }
            build(id)
            count += 1
        }
        unbuilt = rows.count < current.order.count
        wanted = unbuilt ? current.order.filter { rows[$0] != nil } : current.order
        if holding { wanted = displayed }
        arrange(viewport(laidOut: laidOut, count: displayed.count))
        if unbuilt { queueBuild() }
    }

    /// The rows the list box holds (what the window shows, counted by GTK).
    var shownRows: Int {
        guard let children = gtk_container_get_children(cast(list)) else { return 0 }
        defer { g_list_free(children) }
        return Int(g_list_length(children))
    }

    /// The identity of the selected row, if any.
    var selected: BeaconIdentity? {
        guard let row = gtk_list_box_get_selected_row(cast(list)) else { return nil }
        return rowIdentity[UnsafeMutableRawPointer(row)]
    }
}
