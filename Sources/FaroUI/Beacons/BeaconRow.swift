internal import CGtk
import FaroApp
import FaroCore

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
    /// What the widgets show.
    private(set) var model: BeaconRowModel?
    /// The revision of `model` (see `BeaconListUpdate.revisions`): the row is current when it equals the latest.
    private(set) var revision: UInt64?

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

    /// Puts a new state into the widgets, touching only what changed (each changed label is re-measured). A list
    /// of a thousand beacons changes nearly every row every second: the list page calls this only for rows near
    /// the viewport, so rows off screen keep what they show until they are scrolled into view.
    func apply(_ model: BeaconRowModel, revision: UInt64) {
        self.revision = revision
        let old = self.model
        self.model = model
        if model.title != old?.title {
            gtk_label_set_markup(cast(title), "<b>" + escapeMarkup(model.title) + "</b>")
        }
        if model.subtitle != old?.subtitle { gtk_label_set_text(cast(subtitle), model.subtitle) }
        if model.distanceText != old?.distanceText { gtk_label_set_text(cast(distance), model.distanceText) }
        if model.proximityText != old?.proximityText { gtk_label_set_text(cast(proximity), model.proximityText) }
        if !sameValues(model.history, old?.history) {
            sparkline.update(model.history, trend: BeaconListPage.trend(model.history))
        }
        if model.accessibleName != old?.accessibleName { setAccessibleName(row, model.accessibleName) }
    }
}

/// Whether two histories hold the same values, unknown (NaN) distances included.
private func sameValues(_ a: [Float], _ b: [Float]?) -> Bool {
    guard let b, a.count == b.count else { return false }
    return zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
}

/// Escapes text for a Pango markup label.
func escapeMarkup(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}
