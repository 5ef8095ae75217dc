internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The list's input (docs/beacon-page.md): a single click opens a row, a long press, a right click, the Menu key or
/// Shift+F10 shows its menu, the arrow and page keys move through the whole list (built rows or not), and rows hold
/// still while the pointer is over the list or a row has the focus.
extension BeaconListPage {
    /// Connects the list's pointer, touch and key signals.
    func installInput() {
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
                    self.pressed = self.identity(
                        of: gtk_list_box_get_row_at_y(cast(self.list), Int32(button.pointee.y)))
                    return false
                }
                guard button.pointee.type == GDK_BUTTON_PRESS, button.pointee.button == 3,
                    let id = self.identity(of: gtk_list_box_get_row_at_y(cast(self.list), Int32(button.pointee.y)))
                else { return false }
                self.showMenu(for: id, event: event)
                return true
            })
        installLongPress()
        // The Menu key and Shift+F10 on the focused row (the keys of GTK's "popup-menu", which no row takes); the
        // arrows, Page Up/Down, Home and End over the whole list.
        Signal.connect(
            list, "key-press-event",
            event: { [weak self] event in
                guard let self, let event else { return false }
                if WindowKeys.isKey(event, GDK_KEY_Menu)
                    || WindowKeys.isKey(event, GDK_KEY_F10, modifiers: GDK_SHIFT_MASK)
                {
                    guard let focus = gtk_container_get_focus_child(cast(self.list)),
                        let id = self.identity(of: UnsafeMutableRawPointer(focus))
                    else { return false }
                    self.showMenu(for: id, event: nil, row: focus)
                    return true
                }
                return self.key(event)
            })
        Signal.connect(
            list, "row-activated",
            pointer: { [weak self] row in
                guard let self, let id = self.identity(of: row) else { return }
                self.activatedSincePress = true
                // A click opens the beacon that was under the pointer when the button went down.
                self.onActivate?(self.pressed ?? id)
                self.pressed = nil
            })
        Signal.connect(
            list, "row-selected",
            pointer: { [weak self] row in
                // The user's choice; the page's own selecting and unselecting as rows are rebound is not.
                guard let self, !self.steering, let id = self.identity(of: row) else { return }
                self.selectedBeacon = id
            })
        Signal.connect(list, "set-focus-child", pointer: { [weak self] child in self?.focusEntered(child) })
    }

    /// A key on the list: the arrows, Page Up/Down, Home and End move the focus (and, without Ctrl, the selection)
    /// from the focused beacon through the whole list, scrolling its row into view; at either end of the list GTK
    /// takes the key, as it did before. Enter while the focused beacon's row is scrolled away opens that beacon.
    func key(_ event: UnsafeMutableRawPointer) -> Bool {
        let key = event.assumingMemoryBound(to: GdkEventKey.self).pointee
        guard key.type == GDK_KEY_PRESS else { return false }
        let modifiers = key.state & gtk_accelerator_get_default_mod_mask().rawValue
        let control = GDK_CONTROL_MASK.rawValue
        guard modifiers & ~(control | GDK_SHIFT_MASK.rawValue) == 0, let id = focused,
            let from = displayed.firstIndex(of: id)
        else { return false }
        let last = displayed.count - 1
        let page = adjustment.map { gtk_adjustment_get_page_size($0) } ?? 0
        let pageRows = max(Int(page / max(rowHeight, 1)), 1)
        let target: Int
        switch Int32(key.keyval) {
        case GDK_KEY_Up, GDK_KEY_KP_Up: target = from - 1
        case GDK_KEY_Down, GDK_KEY_KP_Down: target = from + 1
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: target = from - pageRows
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: target = from + pageRows
        case GDK_KEY_Home, GDK_KEY_KP_Home: target = 0
        case GDK_KEY_End, GDK_KEY_KP_End: target = last
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space, GDK_KEY_KP_Space:
            guard modifiers == 0, let toplevel = gtk_widget_get_toplevel(list),
                gtk_window_get_focus(cast(toplevel)) == list
            else { return false }
            onActivate?(id)
            return true
        default: return false
        }
        let to = min(max(target, 0), last)
        guard to != from else { return false }
        focus(displayed[to], select: modifiers & control == 0)
        return true
    }

    /// The focus came to a row. From another row of the list, or by a click or touch on the list, the row's beacon
    /// is the focused one. From outside the list by the keyboard or the window (Tab, or the window's stack giving the
    /// focus back to the row it last had when its page comes back), GTK chose a row widget, which may now show
    /// another beacon: the focus goes where GTK would have put it in the whole list, at the beacon whose row had
    /// it (or, for Tab, the selected beacon), else the first (or, for Shift+Tab, the last).
    func focusEntered(_ child: UnsafeMutableRawPointer?) {
        let previous = focusChild
        focusChild = child
        guard !steering, let child, let id = identity(of: child) else { return }
        let event = gtk_get_current_event()
        defer { if let event { gdk_event_free(event) } }
        let type = event?.pointee.type ?? GDK_NOTHING
        let onList = event.map { $0.pointee.any.window == gtk_widget_get_window(list) } ?? false
        let pointer = [GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE, GDK_TOUCH_BEGIN, GDK_TOUCH_END].contains(type)
        if previous != nil || (pointer && onList) {
            focused = id
            return
        }
        let listed = { (id: BeaconIdentity?) in id.flatMap { self.rowModel($0) == nil ? nil : $0 } }
        let tab =
            type == GDK_KEY_PRESS
            && [GDK_KEY_Tab, GDK_KEY_KP_Tab, GDK_KEY_ISO_Left_Tab].contains(Int32(event?.pointee.key.keyval ?? 0))
        let backward = tab && (event?.pointee.key.state ?? 0) & GDK_SHIFT_MASK.rawValue != 0
        let target =
            tab
            ? listed(selectedBeacon) ?? (backward ? displayed.last : displayed.first)
            : listed(focused) ?? listed(selectedBeacon) ?? displayed.first
        guard let target, target != id else {
            focused = id
            return
        }
        focused = target
        // Not from within GTK's own focus change.
        MainContextSources.addIdle(priority: .highIdle) { [weak self] in
            MainActor.assumeIsolated { self?.focus(target, select: false) }
            return false
        }
    }

    /// Whether rows keep their places now: the pointer is over the list, a row has the keyboard focus, or the
    /// pointer left less than `holdGrace` ago.
    var holding: Bool {
        if pointerInside { return true }
        if Double(g_get_monotonic_time()) / 1e6 < holdUntil { return true }
        guard let toplevel = gtk_widget_get_toplevel(list), let focus = gtk_window_get_focus(cast(toplevel)) else {
            return false
        }
        return focus == list || gtk_widget_is_ancestor(focus, list) != 0
    }

    /// The pointer left the list: after the grace, the list takes its order again.
    func pointerLeft() {
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
    func installLongPress() {
        guard let gesture = gtk_gesture_long_press_new(list) else { return }
        longPress = gesture
        gtk_gesture_single_set_touch_only(gesture, 0)
        gtk_gesture_single_set_button(gesture, 1)
        Signal.connect(
            gesture, "pressed",
            point: { [weak self] _, y in
                guard let self, let gesture = self.longPress,
                    let row = gtk_list_box_get_row_at_y(cast(self.list), Int32(y)),
                    let id = self.identity(of: UnsafeMutableRawPointer(row))
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
    func showMenu(
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
            // Opened from the keyboard: its first item is selected, so the arrows and Enter work at once.
            gtk_menu_shell_select_first(cast(menu), 1)
        }
    }
}
