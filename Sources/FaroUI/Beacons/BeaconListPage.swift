import FaroApp
import FaroCore
internal import CGtk
internal import CShim

/// The "Beacons" page: the places in range, nearest first, updated in place once a second, with an empty state
/// that says why nothing is listed.
@MainActor
final class BeaconListPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let emptyTitle: UnsafeMutablePointer<GtkWidget>
    private let emptyDetail: UnsafeMutablePointer<GtkWidget>
    private var rows: [BeaconIdentity: BeaconRow] = [:]
    /// The rows in the order the list box holds them (top first).
    private var displayed: [BeaconIdentity] = []
    /// The order the last model asked for (nearest first).
    private var wanted: [BeaconIdentity] = []
    /// Each row's sort key, by row widget: twice its index in `displayed` (see `arrange`), what the sort function
    /// compares.
    private var position: [UnsafeMutableRawPointer: Int] = [:]
    private var rowIdentity: [UnsafeMutableRawPointer: BeaconIdentity] = [:]
    private var shownEmptyTitle: String?
    private var shownEmptyDetail: String?
    private var refreshQueued = false
    /// The order of the last model, rows not built yet included.
    private var fullOrder: [BeaconIdentity] = []
    /// New rows below the window, built a few at a time from an idle callback (`buildSome`).
    private var unbuilt: [BeaconIdentity: BeaconRowModel] = [:]
    private var buildQueued = false
    /// Rows built at once when the list is not laid out yet (a screenful and more); then per idle callback.
    static let firstRows = 40
    static let rowsPerBatch = 8
    /// Called when the user activates a row (Enter, double click).
    var onActivate: ((BeaconIdentity) -> Void)?

    init() {
        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(cast(list), 1)
        setAccessibleName(list, I18n.tr("Nearby beacons"))

        let placeholder = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        emptyTitle = gtk_label_new(nil)
        emptyDetail = gtk_label_new(nil)
        gtk_label_set_line_wrap(cast(emptyDetail), 1)
        gtk_label_set_justify(cast(emptyDetail), GTK_JUSTIFY_CENTER)
        gtk_style_context_add_class(gtk_widget_get_style_context(emptyDetail), "dim-label")
        let icon = gtk_image_new_from_icon_name("bluetooth-active-symbolic", GTK_ICON_SIZE_DIALOG)
        gtk_box_pack_start(cast(placeholder), icon, 0, 0, 0)
        gtk_box_pack_start(cast(placeholder), emptyTitle, 0, 0, 0)
        gtk_box_pack_start(cast(placeholder), emptyDetail, 0, 0, 0)
        gtk_widget_set_valign(placeholder, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(placeholder, 24)
        gtk_widget_set_margin_end(placeholder, 24)
        gtk_widget_show_all(placeholder)
        gtk_list_box_set_placeholder(cast(list), placeholder)

        root = gtk_scrolled_window_new(nil, nil)
        gtk_scrolled_window_set_policy(cast(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_container_add(cast(root), list)
        // Rows scrolled into view (or uncovered by a taller window) get the order and state they were not given
        // off screen. Deferred to an idle: "changed" comes during size allocation.
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(root))
        Signal.connect(adjustment, "value-changed") { [weak self] in self?.queueRefresh() }
        Signal.connect(adjustment, "changed") { [weak self] in self?.queueRefresh() }

        let sort: @convention(c) (UnsafeMutablePointer<GtkListBoxRow>?, UnsafeMutablePointer<GtkListBoxRow>?,
                                  UnsafeMutableRawPointer?) -> Int32 = { a, b, data in
            guard let data, let a, let b else { return 0 }
            let page = Unmanaged<BeaconListPage>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { page.compare(UnsafeMutableRawPointer(a), UnsafeMutableRawPointer(b)) }
        }
        gtk_list_box_set_sort_func(cast(list), sort, Unmanaged.passUnretained(self).toOpaque(), nil)
        Signal.connect(list, "row-activated", pointer: { [weak self] row in
            guard let self, let row, let id = self.rowIdentity[row] else { return }
            self.onActivate?(id)
        })
    }

    private func compare(_ a: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer) -> Int32 {
        let ia = position[a] ?? Int.max
        let ib = position[b] ?? Int.max
        return ia < ib ? -1 : ia > ib ? 1 : 0
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
    func show(_ model: BeaconListViewModel) {
        if model.emptyTitle != shownEmptyTitle {
            shownEmptyTitle = model.emptyTitle
            gtk_label_set_markup(cast(emptyTitle), "<b>" + escapeMarkup(model.emptyTitle) + "</b>")
        }
        if model.emptyDetail != shownEmptyDetail {
            shownEmptyDetail = model.emptyDetail
            gtk_label_set_text(cast(emptyDetail), model.emptyDetail)
        }
        let window = visibleRange(laidOut: displayed.count, count: model.rows.count)
        let buildNow = displayed.isEmpty ? BeaconListPage.firstRows : window.upperBound
        var seen = Set<BeaconIdentity>(minimumCapacity: model.rows.count)
        var order: [BeaconIdentity] = []
        order.reserveCapacity(model.rows.count)
        var added: [BeaconRowModel] = []
        var later: [BeaconIdentity: BeaconRowModel] = [:]
        for rowModel in model.rows {
            let id = rowModel.identity
            guard seen.insert(id).inserted else { continue }
            if let row = rows[id] {
                row.stage(rowModel)
            } else if order.count < buildNow {
                added.append(rowModel)
            } else {
                later[id] = rowModel
            }
            order.append(id)
        }
        if displayed.count > order.count - later.count - added.count {
            for id in displayed where !seen.contains(id) {
                guard let row = rows.removeValue(forKey: id) else { continue }
                let key = UnsafeMutableRawPointer(row.row)
                rowIdentity[key] = nil
                position[key] = nil
                gtk_container_remove(cast(list), row.row)
            }
            displayed.removeAll { !seen.contains($0) }
            renumber()
        }
        for rowModel in added { build(rowModel) }
        unbuilt = later
        fullOrder = order
        wanted = later.isEmpty ? order : order.filter { rows[$0] != nil }
        arrange(window)
        if !unbuilt.isEmpty { queueBuild() }
    }

    /// A new row, filled and added at the end of the list (`arrange` moves it where it belongs).
    private func build(_ model: BeaconRowModel) {
        let row = BeaconRow(identity: model.identity)
        row.stage(model)
        row.apply()
        rows[model.identity] = row
        let key = UnsafeMutableRawPointer(row.row)
        rowIdentity[key] = model.identity
        position[key] = 2 * displayed.count
        displayed.append(model.identity)
        gtk_container_add(cast(list), row.row)
    }

    private func queueBuild() {
        guard !buildQueued else { return }
        buildQueued = true
        MainLoop.idle { [weak self] in
            guard let self else { return }
            self.buildQueued = false
            self.buildSome()
        }
    }

    /// Builds the next few rows not built yet, nearest first: a thousand beacons appearing at once are added over
    /// a second or so of short steps, with frames drawn between them, instead of one long stall.
    private func buildSome() {
        guard !unbuilt.isEmpty else { return }
        let laidOut = displayed.count
        var count = 0
        for id in fullOrder where count < BeaconListPage.rowsPerBatch {
            guard let model = unbuilt.removeValue(forKey: id) else { continue }
            build(model)
            count += 1
        }
        wanted = unbuilt.isEmpty ? fullOrder : fullOrder.filter { rows[$0] != nil }
        arrange(visibleRange(laidOut: laidOut, count: displayed.count))
        if !unbuilt.isEmpty { queueBuild() }
    }

    /// Puts `wanted[window]` at `displayed[window]`, row by row. A row that belongs in the window is swapped with
    /// one that does not, so rows outside it keep their places (moving a row shifts, and re-allocates, every row
    /// between its old and new place). Then the rows in the window are brought up to date.
    private func arrange(_ window: Range<Int>) {
        let window = window.clamped(to: 0..<displayed.count)
        guard !window.isEmpty else { return }
        if displayed[window] != wanted[window] {
            var next = displayed
            let inWindow = Set(displayed[window])
            let target = Set(wanted[window])
            var index: [BeaconIdentity: Int] = [:]
            for (i, id) in displayed.enumerated() where target.contains(id) && !window.contains(i) { index[id] = i }
            // The places outside the window that rows coming in leave free, top first, go to the rows leaving it,
            // nearest first.
            var freed = wanted[window].compactMap { index[$0] }.sorted()
            freed.reverse()
            for id in wanted where inWindow.contains(id) && !target.contains(id) {
                if let slot = freed.popLast() { next[slot] = id }
            }
            next.replaceSubrange(window, with: wanted[window])
            for (i, id) in next.enumerated() where id != displayed[i] {
                guard let row = rows[id] else { continue }
                // One row at a time, each re-inserted by GTK's binary search: the rows not yet moved keep their
                // old keys, so the list stays sorted. A moved row's key is odd (2i + 1) and never equals an old,
                // even one: GLib leaves a row whose neighbour compares equal where it is.
                position[UnsafeMutableRawPointer(row.row)] = 2 * i + 1
                gtk_list_box_row_changed(cast(row.row))
            }
            displayed = next
            renumber()
        }
        for i in window {
            if let row = rows[displayed[i]], row.isStale { row.apply() }
        }
    }

    /// Sets every row's sort key to twice its index in `displayed` (the same order: GTK needs no telling).
    private func renumber() {
        for (i, id) in displayed.enumerated() {
            if let row = rows[id] { position[UnsafeMutableRawPointer(row.row)] = 2 * i }
        }
    }

    /// The window worth keeping current: the rows on screen and a screenful either side, estimated from the list's
    /// height over the `laidOut` rows it was last laid out with and the scroll position (the rows are all one
    /// height). All `count` rows before the list is first laid out.
    private func visibleRange(laidOut: Int, count: Int) -> Range<Int> {
        let height = Double(gtk_widget_get_allocated_height(list))
        guard laidOut > 0, height > 1, let adjustment = gtk_scrolled_window_get_vadjustment(cast(root)) else {
            return 0..<count
        }
        let rowHeight = max(height / Double(laidOut), 1)
        let top = gtk_adjustment_get_value(adjustment)
        let page = max(gtk_adjustment_get_page_size(adjustment), 1)
        let first = max(Int(((top - page) / rowHeight).rounded(.down)), 0)
        let last = min(Int(((top + 2 * page) / rowHeight).rounded(.up)), count)
        return first < last ? first..<last : 0..<0
    }

    /// Queues `refresh()` ahead of the next frame (GTK redraws at a lower priority than G_PRIORITY_HIGH_IDLE), so
    /// a scrolled-to row is not drawn stale first.
    private func queueRefresh() {
        guard !refreshQueued else { return }
        refreshQueued = true
        let run: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            guard let data else { return 0 }
            let page = Unmanaged<BeaconListPage>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated {
                page.refreshQueued = false
                page.refresh()
            }
            return 0
        }
        g_idle_add_full(G_PRIORITY_HIGH_IDLE, run, Unmanaged.passRetained(self).toOpaque()) { data in
            guard let data else { return }
            Unmanaged<BeaconListPage>.fromOpaque(data).release()
        }
    }

    /// Brings the window up to date after a scroll or a resize.
    private func refresh() {
        guard wanted.count == displayed.count else { return }
        arrange(visibleRange(laidOut: displayed.count, count: displayed.count))
    }

    /// "Getting closer" / "Moving away" / "Steady" over the last ten seconds of history.
    static func trend(_ history: [Float]) -> String {
        let known = history.suffix(10).filter { $0.isFinite }
        guard let first = known.first, let last = known.last, known.count >= 3 else { return I18n.tr("Steady") }
        if last < first * 0.8 { return I18n.tr("Getting closer") }
        if last > first * 1.25 { return I18n.tr("Moving away") }
        return I18n.tr("Steady")
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
