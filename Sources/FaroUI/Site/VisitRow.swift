internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// One line of "Lugares visitados": a day's heading, or a visit (with the heading of its day, for its name).
enum VisitItem {
    case heading(String)
    case visit(VisitEntry, day: String)
}

/// A row of "Lugares visitados" that shows either kind of item: a bold heading, or a visit's place in bold over its
/// business, times and closest distance. Texts are set only when they change. A heading is read by screen readers
/// (its role is "heading") but is no stop of the keyboard: it takes no focus and cannot be selected or activated
/// (docs/keyboard.md; `VisitsPage` walks the keys past it).
@MainActor
final class VisitRow {
    let row: UnsafeMutablePointer<GtkWidget>
    private let heading: UnsafeMutablePointer<GtkWidget>
    private let entry: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    private var texts: [String] = ["", "", "", ""]
    /// Whether the row shows a day's heading (nil before it shows anything).
    private(set) var isHeading: Bool?

    /// A new row at the end of `list`.
    init(in list: UnsafeMutablePointer<GtkWidget>) {
        row = gtk_list_box_row_new()
        let outer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        heading = gtk_label_new(nil)
        gtk_label_set_xalign(cast(heading), 0)
        gtk_widget_set_margin_top(heading, 12)
        gtk_widget_set_margin_start(heading, 8)
        entry = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        gtk_container_set_border_width(cast(entry), 8)
        title = gtk_label_new(nil)
        gtk_label_set_xalign(cast(title), 0)
        detail = gtk_label_new(nil)
        gtk_label_set_xalign(cast(detail), 0)
        gtk_style_context_add_class(gtk_widget_get_style_context(detail), "dim-label")
        gtk_container_add(cast(entry), title)
        gtk_container_add(cast(entry), detail)
        gtk_container_add(cast(outer), heading)
        gtk_container_add(cast(outer), entry)
        gtk_container_add(cast(row), outer)
        gtk_widget_show_all(row)
        gtk_container_add(cast(list), row)
    }

    func show(_ item: VisitItem) {
        switch item {
        case .heading(let text):
            setKind(heading: true)
            set(0, text) { gtk_label_set_markup(cast(self.heading), "<b>" + escapeMarkup($0) + "</b>") }
            set(3, text) { setAccessibleName(self.row, $0) }
        case .visit(let visit, let day):
            setKind(heading: false)
            let entered = VisitsPage.clock(visit.enteredAt)
            let left = visit.leftAt.map(VisitsPage.clock)
            let when = left.map { "\(entered)–\($0)" } ?? I18n.localizer.format("since %@", entered)
            let closest = visit.closest.map { " · " + DistanceText.oneDecimal($0) } ?? ""
            set(1, visit.place.titulo) { gtk_label_set_markup(cast(self.title), "<b>" + escapeMarkup($0) + "</b>") }
            set(2, "\(visit.place.cliente) · \(when)\(closest)") { gtk_label_set_text(cast(self.detail), $0) }
            set(3, "\(visit.place.titulo), \(visit.place.cliente), \(day) \(when)") { setAccessibleName(self.row, $0) }
        }
    }

    private func setKind(heading isHeading: Bool) {
        guard self.isHeading != isHeading else { return }
        self.isHeading = isHeading
        gtk_widget_set_visible(heading, isHeading ? 1 : 0)
        gtk_widget_set_visible(entry, isHeading ? 0 : 1)
        gtk_list_box_row_set_activatable(cast(row), isHeading ? 0 : 1)
        gtk_list_box_row_set_selectable(cast(row), isHeading ? 0 : 1)
        gtk_widget_set_can_focus(row, isHeading ? 0 : 1)
        if let accessible = gtk_widget_get_accessible(row) {
            atk_object_set_role(accessible, isHeading ? ATK_ROLE_HEADING : ATK_ROLE_LIST_ITEM)
        }
    }

    private func set(_ index: Int, _ text: String, _ apply: (String) -> Void) {
        guard texts[index] != text else { return }
        texts[index] = text
        apply(text)
    }
}
