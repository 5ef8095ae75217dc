internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The list's order and viewport: GTK keeps the rows sorted by a key per row that only the rows whose place changes
/// get anew, and only the rows on screen and a screenful either side are brought up to date.
extension BeaconListPage {
    /// Sorts the list box by each row's key (`position`).
    func installSort() {
        typealias Compare = GLibClosure<(UnsafeMutableRawPointer, UnsafeMutableRawPointer), Int32>
        let sort:
            @convention(c) (
                UnsafeMutablePointer<GtkListBoxRow>?, UnsafeMutablePointer<GtkListBoxRow>?,
                UnsafeMutableRawPointer?
            ) -> Int32 = { a, b, data in
                guard let data, let a, let b else { return 0 }
                return Compare.call(data, (UnsafeMutableRawPointer(a), UnsafeMutableRawPointer(b)))
            }
        let compare = Compare.retained { [weak self] pair in
            MainActor.assumeIsolated { self?.compare(pair.0, pair.1) ?? 0 }
        }
        gtk_list_box_set_sort_func(cast(list), sort, compare, Compare.destroyNotify)
    }

    func compare(_ a: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer) -> Int32 {
        let ia = position[a] ?? Int.max
        let ib = position[b] ?? Int.max
        return ia < ib ? -1 : ia > ib ? 1 : 0
    }

    /// Puts `wanted[window]` at `displayed[window]`, row by row. A row that belongs in the window is swapped with
    /// one that does not, so rows outside it keep their places (moving a row shifts, and re-allocates, every row
    /// between its old and new place). Then the rows in the window that are not current are queued to be brought
    /// up to date, those on screen first (`refreshSome`).
    func arrange(_ view: (visible: Range<Int>, window: Range<Int>)) {
        let window = view.window.clamped(to: 0..<displayed.count)
        guard !window.isEmpty else {
            stale = RowRefreshQueue()
            return
        }
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
            var moved: [(index: Int, row: UnsafeMutableRawPointer)] = []
            for (i, id) in next.enumerated() where id != displayed[i] {
                guard let row = rows[id] else { continue }
                // One row at a time, each re-inserted by GTK's binary search: the rows not yet moved keep their
                // old keys, so the list stays sorted. A moved row's key is odd (2i + 1) and never equals an old,
                // even one: GLib leaves a row whose neighbour compares equal where it is.
                let key = UnsafeMutableRawPointer(row.row)
                position[key] = 2 * i + 1
                gtk_list_box_row_changed(cast(row.row))
                moved.append((i, key))
            }
            displayed = next
            // The rows that stayed kept their index and their key (2i): only the moved ones get theirs back.
            for (i, key) in moved { position[key] = 2 * i }
        }
        let order = RowRefreshQueue<Int>.order(visible: view.visible, window: window)
        stale = RowRefreshQueue(
            visible: order.visible.map { displayed[$0] },
            around: order.around.map { displayed[$0] })
        refreshSome()
    }

    /// Brings queued rows up to date: all the rows on screen the first time after `arrange`, then the rows around
    /// them for up to `sliceBudget` per idle callback (one callback each: frames are drawn between them).
    func refreshSome() {
        let clock = { Double(g_get_monotonic_time()) / 1e6 }
        let more = stale.runSlice(budget: BeaconListPage.sliceBudget, now: clock) { id in
            guard let row = rows[id], let (model, revision) = current?.row(id), row.revision != revision else {
                return false
            }
            row.apply(model, revision: revision)
            return true
        }
        guard more, !staleQueued else { return }
        staleQueued = true
        MainThread.run { [weak self] in
            guard let self else { return }
            self.staleQueued = false
            self.refreshSome()
        }
    }

    /// Sets every row's sort key to twice its index in `displayed` (the same order: GTK needs no telling).
    func renumber() {
        for (i, id) in displayed.enumerated() {
            if let row = rows[id] { position[UnsafeMutableRawPointer(row.row)] = 2 * i }
        }
    }

    /// The rows on screen (`visible`) and the window worth keeping current: those and a screenful either side,
    /// estimated from the list's height over the `laidOut` rows it was last laid out with and the scroll
    /// position (the rows are all one height). All `count` rows, for both, before the list is first laid out.
    func viewport(laidOut: Int, count: Int) -> (visible: Range<Int>, window: Range<Int>) {
        let height = Double(gtk_widget_get_allocated_height(list))
        guard laidOut > 0, height > 1, let adjustment = gtk_scrolled_window_get_vadjustment(cast(root)) else {
            return (0..<count, 0..<count)
        }
        let rowHeight = max(height / Double(laidOut), 1)
        let top = gtk_adjustment_get_value(adjustment)
        let page = max(gtk_adjustment_get_page_size(adjustment), 1)
        func clamp(_ i: Int) -> Int { min(max(i, 0), count) }
        let first = clamp(Int(((top - page) / rowHeight).rounded(.down)))
        let last = clamp(Int(((top + 2 * page) / rowHeight).rounded(.up)))
        let firstShown = clamp(Int((top / rowHeight).rounded(.down)))
        let lastShown = clamp(Int(((top + page) / rowHeight).rounded(.up)))
        guard first < last else { return (0..<0, 0..<0) }
        return (firstShown < lastShown ? firstShown..<lastShown : first..<first, first..<last)
    }

    /// Queues `refresh()` ahead of the next frame (GTK redraws at a lower priority than G_PRIORITY_HIGH_IDLE), so
    /// a scrolled-to row is not drawn stale first.
    func queueRefresh() {
        guard !refreshQueued else { return }
        refreshQueued = true
        // Before GTK's relayout and redraw (which run at a lower priority than high idles).
        MainContextSources.addIdle(priority: .highIdle) { [self] in
            MainActor.assumeIsolated {
                refreshQueued = false
                refresh()
            }
            return false
        }
    }

    /// Brings the window up to date after a scroll or a resize.
    func refresh() {
        guard wanted.count == displayed.count else { return }
        arrange(viewport(laidOut: displayed.count, count: displayed.count))
    }
}
