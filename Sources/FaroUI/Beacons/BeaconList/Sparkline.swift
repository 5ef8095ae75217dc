internal import CGtk
import FaroGLib

/// A small line chart of one beacon's distance over the last minute: lower is closer, so a falling line means
/// the user is getting nearer.
///
/// Drawn on an empty box, not a GtkDrawingArea: a drawing area has a GdkWindow of its own, and a thousand rows'
/// windows are a thousand siblings that GDK walks whenever one of them moves or is drawn (rows move every second).
/// A windowless widget draws on the list's window; to assistive technologies it is still a drawing area.
@MainActor
final class Sparkline {
    let area: UnsafeMutablePointer<GtkWidget>
    private var values: [Float] = []

    /// Draws on `area`, an empty box of the row's template.
    init(area: UnsafeMutablePointer<GtkWidget>) {
        self.area = area
        if let accessible = gtk_widget_get_accessible(area) { atk_object_set_role(accessible, ATK_ROLE_DRAWING_AREA) }
        Signal.connect(
            area, "draw",
            event: { [weak self] cr in
                guard let self, let cr else { return false }
                self.draw(self.area, OpaquePointer(cr))
                return true
            })
    }

    /// The accessible description says the trend in words for screen-reader users.
    func update(_ history: [Float], trend: String) {
        values = history
        setAccessibleDescription(area, trend)
        gtk_widget_queue_draw(area)
    }

    private func draw(_ widget: UnsafeMutablePointer<GtkWidget>, _ cr: OpaquePointer) {
        let known = values.filter { $0.isFinite }
        guard known.count >= 2, let lo = known.min(), let hi = known.max() else { return }
        let width = Double(gtk_widget_get_allocated_width(widget))
        let height = Double(gtk_widget_get_allocated_height(widget))
        let span = max(Double(hi - lo), 0.5)
        var color = GdkRGBA()
        let context = gtk_widget_get_style_context(widget)
        gtk_style_context_get_color(context, gtk_style_context_get_state(context), &color)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, 0.8)
        cairo_set_line_width(cr, 1.5)
        var started = false
        for (i, v) in values.enumerated() where v.isFinite {
            let x = width * Double(i) / Double(max(values.count - 1, 1))
            let y = 2 + (height - 4) * (Double(v - lo) / span)
            if started { cairo_line_to(cr, x, y) } else { cairo_move_to(cr, x, y) }
            started = true
        }
        cairo_stroke(cr)
    }
}
