import FaroApp
import FaroCore
internal import CGtk

/// One row of the beacon list: title, business, distance, proximity and the sparkline. Updated in place every
/// tick, so selection and focus survive.
@MainActor
final class BeaconRow {
    let identity: BeaconIdentity
    let row: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let subtitle: UnsafeMutablePointer<GtkWidget>
    private let distance: UnsafeMutablePointer<GtkWidget>
    private let proximity: UnsafeMutablePointer<GtkWidget>
    private let sparkline = Sparkline()
    private(set) var model: BeaconRowModel?

    init(identity: BeaconIdentity) {
        self.identity = identity
        row = gtk_list_box_row_new()
        title = gtk_label_new(nil)
        subtitle = gtk_label_new(nil)
        distance = gtk_label_new(nil)
        proximity = gtk_label_new(nil)
        for label in [title, subtitle] {
            gtk_label_set_xalign(cast(label), 0)
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
            gtk_widget_set_hexpand(label, 1)
        }
        gtk_style_context_add_class(gtk_widget_get_style_context(subtitle), "dim-label")
        gtk_style_context_add_class(gtk_widget_get_style_context(proximity), "dim-label")
        gtk_label_set_xalign(cast(distance), 1)
        gtk_label_set_xalign(cast(proximity), 1)
        let grid = gtk_grid_new()
        gtk_grid_set_column_spacing(cast(grid), 12)
        gtk_grid_set_row_spacing(cast(grid), 2)
        gtk_container_set_border_width(cast(grid), 8)
        gtk_grid_attach(cast(grid), title, 0, 0, 1, 1)
        gtk_grid_attach(cast(grid), subtitle, 0, 1, 1, 1)
        gtk_grid_attach(cast(grid), sparkline.area, 1, 0, 1, 2)
        gtk_grid_attach(cast(grid), distance, 2, 0, 1, 1)
        gtk_grid_attach(cast(grid), proximity, 2, 1, 1, 1)
        gtk_container_add(cast(row), grid)
        gtk_widget_show_all(row)
    }

    func update(_ model: BeaconRowModel, trendText: String) {
        guard model != self.model else { return }
        self.model = model
        let bold = "<b>" + escapeMarkup(model.title) + "</b>"
        gtk_label_set_markup(cast(title), bold)
        gtk_label_set_text(cast(subtitle), model.subtitle)
        gtk_label_set_text(cast(distance), model.distanceText)
        gtk_label_set_text(cast(proximity), model.proximityText)
        sparkline.update(model.history, trend: trendText)
        setAccessibleName(row, model.accessibleName)
    }
}

/// Escapes text for a Pango markup label.
func escapeMarkup(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}
