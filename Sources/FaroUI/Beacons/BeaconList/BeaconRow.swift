internal import CGtk
import FaroApp
import FaroCore

/// One row of the beacon list (`Resources/ui/beacon-row.ui`): title, business, distance, proximity and the
/// sparkline. The list keeps a few of them and binds each to whichever beacon is at its place (`apply`), so a row
/// shows one beacon now and another later; rows are not destroyed when their beacon leaves.
@MainActor
final class BeaconRow {
    /// The beacon the row shows (nil until it is first bound).
    private(set) var identity: BeaconIdentity?
    let row: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let subtitle: UnsafeMutablePointer<GtkWidget>
    private let distance: UnsafeMutablePointer<GtkWidget>
    private let proximity: UnsafeMutablePointer<GtkWidget>
    private let sparkline: Sparkline
    /// What the widgets show.
    private(set) var model: BeaconRowModel?
    /// The revision of `model` (see `BeaconListUpdate.revisions`): the row is current when it equals the latest.
    private(set) var revision: UInt64?

    init() {
        let template = Template("beacon-row")
        row = template.widget("row")
        // The row outlives the builder: the list box takes it.
        g_object_ref_sink(UnsafeMutableRawPointer(row))
        title = template.widget("title")
        subtitle = template.widget("subtitle")
        distance = template.widget("distance")
        proximity = template.widget("proximity")
        sparkline = Sparkline(area: template.widget("sparkline"))
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(row)) }

    /// Shows a beacon's state (the same beacon's newer values, or another beacon's), touching only the widgets whose
    /// text changed (each changed label is re-measured).
    func apply(_ model: BeaconRowModel, revision: UInt64) {
        identity = model.identity
        self.revision = revision
        let old = self.model
        self.model = model
        if model.title != old?.title {
            gtk_label_set_markup(cast(title), "<b>" + escapeMarkup(model.title) + "</b>")
        }
        if model.subtitle != old?.subtitle { gtk_label_set_text(cast(subtitle), model.subtitle) }
        if model.distanceText != old?.distanceText { gtk_label_set_text(cast(distance), model.distanceText) }
        if model.proximityText != old?.proximityText { gtk_label_set_text(cast(proximity), model.proximityText) }
        if !sameValues(model.history, old?.history) || model.trendText != old?.trendText {
            sparkline.update(model.history, trend: model.trendText)
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
