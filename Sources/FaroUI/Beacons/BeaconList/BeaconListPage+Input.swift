internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The list's input (docs/beacon-page.md): a single click opens a row, a long press, a right click, the Menu key or
/// Shift+F10 shows its menu, and rows hold still while the pointer is over the list or a row has the focus.
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
        // The Menu key and Shift+F10 on the focused row (the keys of GTK's "popup-menu", which no row takes).
        Signal.connect(
            list, "key-press-event",
            event: { [weak self] event in
                guard let self, let event,
                    WindowKeys.isKey(event, GDK_KEY_Menu)
                        || WindowKeys.isKey(event, GDK_KEY_F10, modifiers: GDK_SHIFT_MASK),
                    let focus = gtk_container_get_focus_child(cast(self.list)),
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

    /// Whether rows keep their places now: the pointer is over the list, a row has the keyboard focus, or the
    /// pointer left less than `holdGrace` ago.
    var holding: Bool {
        if pointerInside { return true }
        if Double(g_get_monotonic_time()) / 1e6 < holdUntil { return true }
        guard let toplevel = gtk_widget_get_toplevel(list), let focus = gtk_window_get_focus(cast(toplevel)) else {
            return false
        }
        return gtk_widget_is_ancestor(focus, list) != 0
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
