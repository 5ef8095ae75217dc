internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The small dialogs of the content view, each from its template in `Resources/ui/`: the optional comment of
/// "Enviar mis datos", the 5-star rating bar of "Calificar sitio", the QR code of the shared link, and a problem
/// report. `submit` returns an error to show, or nil to close.
@MainActor
enum FeedbackDialogs {
    /// Builds `name`'s dialog over `parent`'s window, with accessible names from its title and button labels.
    private static func dialog(_ name: String, parent: UnsafeMutablePointer<GtkWidget>, buttons: [String])
        -> (Template, UnsafeMutablePointer<GtkWidget>)
    {
        let template = Template(name)
        let d = template.widget("dialog")
        if let top = gtk_widget_get_toplevel(parent) { gtk_window_set_transient_for(cast(d), cast(top)) }
        if let title = gtk_window_get_title(cast(d)) { setAccessibleName(d, String(cString: title)) }
        for id in buttons { FormDialog.nameAfterLabel(template.widget(id)) }
        return (template, d)
    }

    /// Shows `error` in the dialog's error label.
    private static func show(_ error: String, in label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_text(cast(label), error)
        gtk_widget_show(label)
    }

    /// "Enviar mis datos": an optional free-text comment, then send.
    static func comment(parent: UnsafeMutablePointer<GtkWidget>, submit: @escaping @MainActor (String) -> String?) {
        let (template, d) = dialog("comment-dialog", parent: parent, buttons: ["cancel", "accept"])
        let view = template.widget("comment")
        let error = template.widget("error")
        Signal.connect(
            d, "response",
            int: { response in
                if response == GTK_RESPONSE_ACCEPT.rawValue {
                    var start = GtkTextIter()
                    var end = GtkTextIter()
                    let buffer = gtk_text_view_get_buffer(cast(view))
                    gtk_text_buffer_get_bounds(buffer, &start, &end)
                    let text =
                        gtk_text_buffer_get_text(buffer, &start, &end, 0).map { p in
                            defer { g_free(p) }
                            return String(cString: p)
                        } ?? ""
                    if let problem = submit(text) {
                        show(problem, in: error)
                        return
                    }
                }
                gtk_widget_destroy(d)
            })
        gtk_window_present(cast(d))
    }

    /// "Calificar sitio": a rating bar of 5 stars, integer values 0–5 (no star selected is 0). The bar is one stop
    /// of the Tab order, named "Calificación" with its value ("4 de 5") as its description: Right, Up and + add a
    /// star, Left, Down and - take one away, Home clears it, End gives 5, a digit 0–5 sets it, and Enter sends.
    static func rating(parent: UnsafeMutablePointer<GtkWidget>, submit: @escaping @MainActor (Int) -> String?) {
        let (template, d) = dialog("rating-dialog", parent: parent, buttons: ["cancel", "accept"])
        let value = template.widget("value")
        let error = template.widget("error")
        let bar = template.widget("stars")
        final class State { var rating = 0 }
        let state = State()
        let buttons = (1...5).map { template.widget("star-\($0)") }
        func paint() {
            for (i, b) in buttons.enumerated() { gtk_button_set_label(cast(b), i < state.rating ? "★" : "☆") }
            let text = I18n.localizer.format("%@ of 5", String(state.rating))
            gtk_label_set_text(cast(value), text)
            setAccessibleDescription(bar, text)
        }
        for (i, b) in buttons.enumerated() {
            let n = i + 1
            setAccessibleName(b, I18n.localizer.plural("%@ star", "%@ stars", n))
            // Clicking the selected star again clears the rating back to 0.
            Signal.connect(b, "clicked") { () -> Void in
                state.rating = state.rating == n ? 0 : n
                paint()
            }
        }
        Signal.connect(
            bar, "key-press-event",
            event: { event in
                guard let event, let rating = ratingKey(event, current: state.rating) else { return false }
                state.rating = rating
                paint()
                return true
            })
        // The focus ring around the stars while the bar has the keyboard focus.
        Signal.connect(
            bar, "draw",
            event: { cr in
                guard let cr, gtk_widget_has_visible_focus(bar) != 0 else { return false }
                gtk_render_focus(
                    gtk_widget_get_style_context(bar), OpaquePointer(cr), 0, 0,
                    Double(gtk_widget_get_allocated_width(bar)), Double(gtk_widget_get_allocated_height(bar)))
                return false
            })
        paint()
        Signal.connect(
            d, "response",
            int: { response in
                if response == GTK_RESPONSE_ACCEPT.rawValue, let problem = submit(state.rating) {
                    show(problem, in: error)
                    return
                }
                gtk_widget_destroy(d)
            })
        gtk_widget_grab_focus(bar)
        gtk_window_present(cast(d))
    }

    /// The rating a key gives the rating bar, or nil for keys the bar leaves to the dialog (Tab, Enter, Escape).
    private static func ratingKey(_ event: UnsafeMutableRawPointer, current: Int) -> Int? {
        let key = event.assumingMemoryBound(to: GdkEventKey.self).pointee
        let mask = gtk_accelerator_get_default_mod_mask().rawValue
        guard key.state & mask & ~GDK_SHIFT_MASK.rawValue == 0 else { return nil }
        switch Int32(key.keyval) {
        case GDK_KEY_Right, GDK_KEY_KP_Right, GDK_KEY_Up, GDK_KEY_KP_Up, GDK_KEY_plus, GDK_KEY_KP_Add:
            return min(5, current + 1)
        case GDK_KEY_Left, GDK_KEY_KP_Left, GDK_KEY_Down, GDK_KEY_KP_Down, GDK_KEY_minus, GDK_KEY_KP_Subtract:
            return max(0, current - 1)
        case GDK_KEY_Home, GDK_KEY_KP_Home: return 0
        case GDK_KEY_End, GDK_KEY_KP_End: return 5
        case GDK_KEY_0...GDK_KEY_5: return Int(Int32(key.keyval) - GDK_KEY_0)
        case GDK_KEY_KP_0...GDK_KEY_KP_5: return Int(Int32(key.keyval) - GDK_KEY_KP_0)
        default: return nil
        }
    }

    /// Says what went wrong with something the user asked for (an export, a delete), with a Close button.
    static func problem(parent: UnsafeMutablePointer<GtkWidget>, title: String, detail: String) {
        let (template, d) = dialog("problem-dialog", parent: parent, buttons: ["close"])
        gtk_window_set_title(cast(d), title)
        setAccessibleName(d, title)
        gtk_label_set_text(cast(template.widget("detail")), detail)
        Signal.connect(d, "response", int: { _ in gtk_widget_destroy(d) })
        gtk_window_present(cast(d))
    }

    /// The QR code of the shared link, drawn large enough for a phone camera.
    static func qr(parent: UnsafeMutablePointer<GtkWidget>, matrix: QRMatrix, url: String) {
        let (template, d) = dialog("qr-dialog", parent: parent, buttons: ["close"])
        let area = template.widget("code")
        let side = Int32((matrix.size + 8) * 6)
        gtk_widget_set_size_request(area, side, side)
        setAccessibleName(area, I18n.localizer.format("QR code of %@", url))
        gtk_label_set_text(cast(template.widget("url")), url)
        Signal.connect(
            area, "draw",
            event: { data in
                guard let data else { return false }
                let cr = OpaquePointer(data)
                let w = Double(gtk_widget_get_allocated_width(area))
                let h = Double(gtk_widget_get_allocated_height(area))
                let module = min(w, h) / Double(matrix.size + 8)
                cairo_set_source_rgb(cr, 1, 1, 1)
                cairo_paint(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)
                for y in 0..<matrix.size {
                    for x in 0..<matrix.size where matrix.isDark(x: x, y: y) {
                        cairo_rectangle(cr, (Double(x) + 4) * module, (Double(y) + 4) * module, module, module)
                    }
                }
                cairo_fill(cr)
                return true
            })
        Signal.connect(d, "response", int: { _ in gtk_widget_destroy(d) })
        gtk_window_present(cast(d))
    }
}
