internal import CGtk
import FaroGLib

/// The keyboard over "Lugares visitados" (docs/keyboard.md): the arrows, Page Up/Down, Home, End and Tab move from
/// visit to visit; the days' headings are read by screen readers but never take the focus.
extension VisitsPage {
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
    func moveCursor(_ step: Int32, _ count: Int32) {
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
    func focus(_ rawDirection: Int32) -> Bool {
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
}
