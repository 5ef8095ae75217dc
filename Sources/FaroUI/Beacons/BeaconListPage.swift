internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The "Beacons" page (`Resources/ui/beacon-list.ui`): the places in range, nearest first, updated in place once a second, with an empty state
/// that says why nothing is listed.
@MainActor
final class BeaconListPage {
    let root: UnsafeMutablePointer<GtkWidget>
    /// The page's view, kept for the page's lifetime (its builder holds the objects until the window takes them).
    private let template: Template
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
    /// The last list shown: every row's model and revision, rows not built yet included.
    private var current: BeaconListUpdate?
    /// Some rows of `current` have no widget yet: rows below the window are built a few at a time from an idle
    /// callback (`buildSome`).
    private var unbuilt = false
    private var buildQueued = false
    /// Rows in the window still to bring up to date, visible ones first (`arrange`, `refreshSome`).
    private var stale = RowRefreshQueue<BeaconIdentity>()
    private var staleQueued = false
    /// Rows built at once when the list is not laid out yet (about a screenful: each takes ~0.5 ms of template
    /// building, and 40 at once stalled the main loop for 20–30 ms); then per idle callback.
    static let firstRows = 16
    static let rowsPerBatch = 8
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
    /// The menu on screen (kept until it is hidden).
    private var shownMenu: UnsafeMutablePointer<GtkWidget>?
    /// Whether the pointer is over the list: rows then keep their places (docs/beacon-page.md).
    private var pointerInside = false
    /// Until when (monotonic seconds) rows keep their places after the pointer left.
    private var holdUntil = 0.0
    private var releaseTimer: UInt32 = 0
    /// The short grace after the pointer leaves before the list re-sorts.
    static let holdGrace = 0.8
    /// The row under the pointer when button 1 went down, and whether GTK activated a row since.
    private var pressed: BeaconIdentity?
    private var activatedSincePress = false
    /// A long press on a row (touch, or button 1 held) shows the row's context menu, as a right click does. GTK 3
    /// leaves a gesture to whoever made it: the page keeps it for the list's lifetime.
    private var longPress: OpaquePointer?

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
        Signal.connect(
            list, "enter-notify-event",
            event: { [weak self] _ in
                self?.pointerInside = true
                return false
            })
        Signal.connect(
            list, "leave-notify-event",
            event: { [weak self] event in
                guard let self, let event else { return false }
                // Moving onto a row's own window is not leaving the list.
                let crossing = event.assumingMemoryBound(to: GdkEventCrossing.self)
                if crossing.pointee.detail != GDK_NOTIFY_INFERIOR { self.pointerLeft() }
                return false
            })
        Signal.connect(
            list, "button-release-event",
            event: { [weak self] event in
                guard let self, let event else { return false }
                let button = event.assumingMemoryBound(to: GdkEventButton.self)
                guard button.pointee.button == 1, let id = self.pressed else { return false }
                let inside =
                    button.pointee.x >= 0 && button.pointee.y >= 0
                    && button.pointee.x < Double(gtk_widget_get_allocated_width(self.list))
                    && button.pointee.y < Double(gtk_widget_get_allocated_height(self.list))
                // GTK's own activation runs after this handler: look once it has had its turn.
                MainThread.run { [weak self] in
                    guard let self else { return }
                    if inside, !self.activatedSincePress, self.pressed == id { self.onActivate?(id) }
                    self.pressed = nil
                }
                return false
            })
        Signal.connect(
            list, "button-press-event",
            event: { [weak self] event in
                guard let self, let event else { return false }
                let button = event.assumingMemoryBound(to: GdkEventButton.self)
                if button.pointee.type == GDK_BUTTON_PRESS, button.pointee.button == 1 {
                    self.pointerInside = true
                    self.activatedSincePress = false
                    self.pressed = gtk_list_box_get_row_at_y(cast(self.list), Int32(button.pointee.y)).flatMap {
                        self.rowIdentity[UnsafeMutableRawPointer($0)]
                    }
                    return false
                }
                guard button.pointee.type == GDK_BUTTON_PRESS, button.pointee.button == 3,
                    let row = gtk_list_box_get_row_at_y(cast(self.list), Int32(button.pointee.y)),
                    let id = self.rowIdentity[UnsafeMutableRawPointer(row)]
                else { return false }
                self.showMenu(for: id, event: event)
                return true
            })
        installLongPress()
        Relayout.whenShown(list)
        Signal.connect(
            list, "popup-menu",
            returning: { [weak self] in
                guard let self, let focus = gtk_container_get_focus_child(cast(self.list)),
                    let id = self.rowIdentity[UnsafeMutableRawPointer(focus)]
                else { return false }
                self.showMenu(for: id, event: nil, row: focus)
                return true
            })
        Signal.connect(
            list, "row-activated",
            pointer: { [weak self] row in
                guard let self, let row, let id = self.rowIdentity[row] else { return }
                self.activatedSincePress = true
                // A click opens the beacon that was under the pointer when the button went down.
                self.onActivate?(self.pressed ?? id)
                self.pressed = nil
            })
    }

    /// Rows of beacons that left kept at most while the list holds still: past them the list takes its order again
    /// (a pointer left resting on the list while a crowd passes would otherwise keep a row for every beacon gone).
    static let maxHeldDepartedRows = 32

    /// Whether the rows keep their places at this update: while `holding`, unless more than `maxHeldDepartedRows`
    /// rows are of beacons that left.
    static func keepsPlaces(holding: Bool, departedRows: Int) -> Bool {
        holding && departedRows <= maxHeldDepartedRows
    }

    /// Whether rows keep their places now: the pointer is over the list, a row has the keyboard focus, or the
    /// pointer left less than `holdGrace` ago.
    private var holding: Bool {
        if pointerInside { return true }
        if Double(g_get_monotonic_time()) / 1e6 < holdUntil { return true }
        guard let toplevel = gtk_widget_get_toplevel(list), let focus = gtk_window_get_focus(cast(toplevel)) else {
            return false
        }
        return gtk_widget_is_ancestor(focus, list) != 0
    }

    /// The pointer left the list: after the grace, the list takes its order again.
    private func pointerLeft() {
        pointerInside = false
        holdUntil = Double(g_get_monotonic_time()) / 1e6 + BeaconListPage.holdGrace
        if releaseTimer != 0 { MainThread.cancel(releaseTimer) }
        releaseTimer = MainThread.every(milliseconds: UInt32(BeaconListPage.holdGrace * 1000) + 50) { [weak self] in
            guard let self else { return false }
            self.releaseTimer = 0
            if let current = self.current, !self.holding { self.show(current) }
            return false
        }
    }

    /// A long press on a row pops up its context menu where the press is (docs/beacon-page.md). The menu takes the
    /// pointer, so the release that ends the long press goes to the menu, not to the list: it opens nothing.
    private func installLongPress() {
        guard let gesture = gtk_gesture_long_press_new(list) else { return }
        longPress = gesture
        gtk_gesture_single_set_touch_only(gesture, 0)
        gtk_gesture_single_set_button(gesture, 1)
        Signal.connect(
            gesture, "pressed",
            point: { [weak self] _, y in
                guard let self, let gesture = self.longPress,
                    let row = gtk_list_box_get_row_at_y(cast(self.list), Int32(y)),
                    let id = self.rowIdentity[UnsafeMutableRawPointer(row)]
                else { return }
                let sequence = gtk_gesture_single_get_current_sequence(gesture)
                gtk_gesture_set_state(gesture, GTK_EVENT_SEQUENCE_CLAIMED)
                // The release that follows is the long press's, not a click (the list's own fallback must not
                // activate the row either).
                self.pressed = nil
                self.activatedSincePress = true
                let event = gtk_gesture_get_last_event(gesture, sequence).map { UnsafeMutableRawPointer(mutating: $0) }
                self.showMenu(for: id, event: event, row: cast(row, to: GtkWidget.self), afterLongPress: true)
            })
        Signal.connect(list, "destroy") { [weak self] () -> Void in
            guard let self, let gesture = self.longPress else { return }
            self.longPress = nil
            GObjectSignal.unref(UnsafeMutableRawPointer(gesture))
        }
    }

    /// Pops up the context menu of a row at the pointer (or under the row, from the keyboard). After a long press
    /// the button is still down: a GTK 3 menu closes on a release that comes later than half a second after it
    /// opened and away from its items, so the menu lets that first release go by and stays open, unless the
    /// finger or pointer moved onto an item first, which the release then chooses.
    private func showMenu(
        for identity: BeaconIdentity, event: UnsafeMutableRawPointer?, row: UnsafeMutablePointer<GtkWidget>? = nil,
        afterLongPress: Bool = false
    ) {
        guard !menuItems.isEmpty else { return }
        if let old = shownMenu { gtk_widget_destroy(old) }
        guard let menu = gtk_menu_new() else { return }
        shownMenu = menu
        gtk_menu_attach_to_widget(cast(menu), list, nil)
        for item in menuItems {
            guard let entry = gtk_menu_item_new_with_label(item.label) else { continue }
            let action = item.action
            Signal.connect(entry, "activate") { action(identity) }
            gtk_menu_shell_append(cast(menu), entry)
        }
        gtk_widget_show_all(menu)
        if afterLongPress {
            var held = true
            Signal.connect(
                menu, "button-release-event",
                event: { _ in
                    defer { held = false }
                    // Dragged onto an item before letting go: GTK activates it, as a press, drag and release does
                    // in any menu.
                    guard held, gtk_menu_shell_get_selected_item(cast(menu)) == nil else { return false }
                    return true
                })
        }
        if let event {
            gtk_menu_popup_at_pointer(cast(menu), cast(event, to: GdkEvent.self))
        } else if let row {
            gtk_menu_popup_at_widget(cast(menu), row, GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, nil)
        }
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
        current = update
        let view = viewport(laidOut: displayed.count, count: update.order.count)
        let departed = displayed.reduce(0) { $0 + (update.positions[$1] == nil ? 1 : 0) }
        let hold = BeaconListPage.keepsPlaces(holding: holding, departedRows: departed)
        // While rows hold still, a beacon that left keeps its row (showing its last values) until the re-sort.
        if !hold, departed > 0 {
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

    /// Puts `wanted[window]` at `displayed[window]`, row by row. A row that belongs in the window is swapped with
    /// one that does not, so rows outside it keep their places (moving a row shifts, and re-allocates, every row
    /// between its old and new place). Then the rows in the window that are not current are queued to be brought
    /// up to date, those on screen first (`refreshSome`).
    private func arrange(_ view: (visible: Range<Int>, window: Range<Int>)) {
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
    private func refreshSome() {
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
    private func renumber() {
        for (i, id) in displayed.enumerated() {
            if let row = rows[id] { position[UnsafeMutableRawPointer(row.row)] = 2 * i }
        }
    }

    /// The rows on screen (`visible`) and the window worth keeping current: those and a screenful either side,
    /// estimated from the list's height over the `laidOut` rows it was last laid out with and the scroll
    /// position (the rows are all one height). All `count` rows, for both, before the list is first laid out.
    private func viewport(laidOut: Int, count: Int) -> (visible: Range<Int>, window: Range<Int>) {
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
    private func queueRefresh() {
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
    private func refresh() {
        guard wanted.count == displayed.count else { return }
        arrange(viewport(laidOut: displayed.count, count: displayed.count))
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
