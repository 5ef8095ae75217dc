internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The rows built: only those on screen and a screenful either side (the window), from a pool of rows bound by
/// place. `slots[i]` shows `displayed[first + i]`; the spacers above and below the list box take the height of the
/// rows not built (every row is one height), so the scrollbar, the scroll position and the order are those of the
/// whole list. A new order, new values or a scroll rebinds rows (`BeaconRow.apply` touches only the labels whose
/// text changed); no row is built or destroyed for a beacon that comes or goes, so the rows (and their accessible
/// objects) number about three screenfuls whatever the crowd. The selection and the keyboard focus follow their
/// beacon from row to row (`focused`, `selectedBeacon`).
extension BeaconListPage {
    var adjustment: UnsafeMutablePointer<GtkAdjustment>? { gtk_scrolled_window_get_vadjustment(cast(root)) }

    /// The most rows the window holds for a page of `page` pixels and rows of `rowHeight`: the screen and a
    /// screenful either side, plus the rows cut at the three edges.
    static func windowRows(page: Double, rowHeight: Double) -> Int {
        Int((3 * page / max(rowHeight, 1)).rounded(.up)) + 2
    }

    /// The rows on screen and the window to build, by index in `displayed`, for the scroll position `top` (the
    /// adjustment's, unless given). Before the list is laid out: the first `firstRows`.
    func viewport(count: Int, top given: Double? = nil) -> (visible: Range<Int>, window: Range<Int>) {
        let page = adjustment.map { gtk_adjustment_get_page_size($0) } ?? 0
        guard count > 0 else { return (0..<0, 0..<0) }
        guard rowHeight > 1, page > 1, let adjustment else {
            let n = min(count, max(BeaconListPage.firstRows, slots.count))
            return (0..<n, 0..<n)
        }
        let top = given ?? gtk_adjustment_get_value(adjustment)
        func index(_ y: Double, _ rule: FloatingPointRoundingRule) -> Int {
            min(max(Int((y / rowHeight).rounded(rule)), 0), count)
        }
        let visible = index(top, .down)..<max(index(top, .down), index(top + page, .up))
        // The window built is kept while it covers the screen and half a screenful either side: a scroll rebinds
        // the rows every half screenful, not every pixel.
        let built = first..<(first + slots.count)
        let needed = index(top - page / 2, .down)..<index(top + 1.5 * page, .up)
        if built.upperBound <= count, built.lowerBound <= needed.lowerBound, built.upperBound >= needed.upperBound,
            built.count <= BeaconListPage.windowRows(page: page, rowHeight: rowHeight), given == nil
        {
            return (visible, built)
        }
        return (visible, index(top - page, .down)..<index(top + 2 * page, .up))
    }

    /// Measures the rows' height (a built row's allocation, or its natural height before it is laid out).
    func measureRowHeight() {
        guard let row = slots.first?.row else { return }
        let allocated = Double(gtk_widget_get_allocated_height(row))
        if allocated > 1 {
            rowHeight = allocated
        } else if rowHeight <= 1 {
            var minimum: Int32 = 0
            var natural: Int32 = 0
            gtk_widget_get_preferred_height(row, &minimum, &natural)
            rowHeight = Double(max(natural, 1))
        }
    }

    /// Fits the window to the scroll position (or to `top`, a scroll about to be made) and the list shown: rows are
    /// taken from the pool, built (those on screen at once, `rowsPerBatch` more per call) or put back, the spacers
    /// sized, and the rows whose beacon or values changed bound again, those on screen now and the others from idle
    /// callbacks (`bindSome`).
    func refresh(top: Double? = nil) {
        let count = displayed.count
        let hadFocus = focusInList
        if count > 0, slots.isEmpty, spare.isEmpty { add(BeaconRow()) }
        measureRowHeight()
        let view = viewport(count: count, top: top)
        let window = view.window
        first = window.lowerBound
        var built = 0
        let mustBuild = max(view.visible.upperBound - window.lowerBound, 0)
        while slots.count < window.count {
            if let row = spare.popLast() {
                gtk_container_add(cast(list), row.row)
                slots.append(row)
            } else if slots.count < mustBuild || built < BeaconListPage.rowsPerBatch {
                add(BeaconRow())
                built += 1
            } else {
                break
            }
        }
        while slots.count > window.count, let row = slots.popLast() {
            gtk_container_remove(cast(list), row.row)
            spare.append(row)
        }
        let height = max(rowHeight, 1)
        let last = first + slots.count
        gtk_widget_set_size_request(above, -1, Int32(clamping: Int(Double(first) * height)))
        gtk_widget_set_size_request(below, -1, Int32(clamping: Int(Double(max(count - last, 0)) * height)))
        let order = RowRefreshQueue<Int>.order(
            visible: (view.visible.lowerBound - first)..<(view.visible.upperBound - first), window: 0..<slots.count)
        stale = RowRefreshQueue(visible: order.visible, around: order.around)
        bindSome()
        fixFocus(hadFocus: hadFocus)
        // Rows not built yet: more in the next idle callback.
        if slots.count < window.count { queueBuild() }
    }

    /// A new row in the list box, at the end.
    private func add(_ row: BeaconRow) {
        slotOf[UnsafeMutableRawPointer(row.row)] = row
        gtk_container_add(cast(list), row.row)
        slots.append(row)
    }

    private func queueBuild() {
        MainThread.run { [weak self] in self?.refresh() }
    }

    /// Binds queued rows: all the rows on screen the first time after `refresh`, then the rows around them for up
    /// to `sliceBudget` per idle callback (one callback each: frames are drawn between them).
    func bindSome() {
        let clock = { Double(g_get_monotonic_time()) / 1e6 }
        let more = stale.runSlice(budget: BeaconListPage.sliceBudget, now: clock) { bind($0) }
        guard more, !staleQueued else { return }
        staleQueued = true
        MainThread.run { [weak self] in
            guard let self else { return }
            self.staleQueued = false
            let hadFocus = self.focusInList
            self.bindSome()
            self.fixFocus(hadFocus: hadFocus)
        }
    }

    /// Makes `slots[i]` show the beacon at its place, at its latest revision; returns whether it changed.
    @discardableResult
    func bind(_ i: Int) -> Bool {
        guard i < slots.count, first + i < displayed.count else { return false }
        let id = displayed[first + i]
        let slot = slots[i]
        guard let (model, revision) = rowModel(id), slot.identity != id || slot.revision != revision else {
            return false
        }
        let rebound = slot.identity != id
        slot.apply(model, revision: revision)
        if rebound { syncSelection(slot) }
        return true
    }

    /// Selects the row if it shows the selected beacon, and only then.
    func syncSelection(_ slot: BeaconRow) {
        let should = slot.identity != nil && slot.identity == selectedBeacon
        guard (gtk_list_box_row_is_selected(cast(slot.row)) != 0) != should else { return }
        steering = true
        defer { steering = false }
        if should {
            gtk_list_box_select_row(cast(list), cast(slot.row))
        } else {
            gtk_list_box_unselect_row(cast(list), cast(slot.row))
        }
    }

    /// The window's focus widget, when it is the list box or one of its rows.
    var focusInList: Bool {
        guard let toplevel = gtk_widget_get_toplevel(list), gtk_widget_is_toplevel(toplevel) != 0,
            let focus = gtk_window_get_focus(cast(toplevel))
        else { return false }
        return focus == list || slotOf[UnsafeMutableRawPointer(focus)] != nil
    }

    /// Keeps the keyboard focus on the row of the focused beacon. While that beacon is outside the window (scrolled
    /// away), the list box itself holds the focus, and gives it back to the beacon's row when it is built again;
    /// the arrow keys and Enter still act from that beacon (`BeaconListPage+Input.swift`).
    func fixFocus(hadFocus: Bool) {
        guard hadFocus || focusInList, let toplevel = gtk_widget_get_toplevel(list),
            gtk_widget_is_toplevel(toplevel) != 0
        else { return }
        let focus = gtk_window_get_focus(cast(toplevel))
        guard let id = focused, let index = displayed.firstIndex(of: id), index >= first, index - first < slots.count
        else {
            if focus != list { grab(list) }
            return
        }
        bind(index - first)
        let row = slots[index - first].row
        if focus != row { grab(row) }
    }

    /// Gives the keyboard focus to a row or the list box, without the page's handlers taking it for the user's.
    func grab(_ widget: UnsafeMutablePointer<GtkWidget>) {
        steering = true
        defer { steering = false }
        gtk_widget_grab_focus(widget)
    }

    /// Moves the keyboard focus (and, with `select`, the selection) to a beacon anywhere in the list, scrolling its
    /// row into view.
    func focus(_ id: BeaconIdentity, select: Bool) {
        guard let index = displayed.firstIndex(of: id), let adjustment else { return }
        focused = id
        if select { selectedBeacon = id }
        let top = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        let height = max(rowHeight, 1)
        var wanted = top
        if Double(index) * height < top {
            wanted = Double(index) * height
        } else if Double(index + 1) * height > top + page {
            wanted = Double(index + 1) * height - page
        }
        if wanted != top {
            // The list may have grown since it was last laid out (rows holding still take new beacons at the end).
            if gtk_adjustment_get_upper(adjustment) < wanted + page {
                gtk_adjustment_set_upper(adjustment, wanted + page)
            }
            gtk_adjustment_set_value(adjustment, wanted)
        }
        refresh(top: wanted)
        for slot in slots { syncSelection(slot) }
        fixFocus(hadFocus: true)
    }

    /// Queues `refresh()` ahead of the next frame (GTK redraws at a lower priority than G_PRIORITY_HIGH_IDLE), so
    /// a scrolled-to row is not drawn stale first.
    func queueRefresh() {
        guard !refreshQueued else { return }
        refreshQueued = true
        MainContextSources.addIdle(priority: .highIdle) { [self] in
            MainActor.assumeIsolated {
                refreshQueued = false
                refresh()
            }
            return false
        }
    }
}
