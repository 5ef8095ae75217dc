internal import CGtk
internal import CShim
import FaroApp
import FaroCore

/// The small dialogs of the content view: the optional comment of "Enviar mis datos", the 5-star rating bar of
/// "Calificar sitio", and the QR code of the shared link. `submit` returns an error to show, or nil to close.
@MainActor
enum FeedbackDialogs {
    private static func dialog(parent: UnsafeMutablePointer<GtkWidget>, title: String, accept: String)
        -> UnsafeMutablePointer<GtkWidget>
    {
        let d: UnsafeMutablePointer<GtkWidget> = gtk_dialog_new()
        gtk_window_set_title(cast(d), title)
        gtk_window_set_modal(cast(d), 1)
        if let top = gtk_widget_get_toplevel(parent) { gtk_window_set_transient_for(cast(d), cast(top)) }
        setAccessibleName(d, title)
        let cancel = gtk_dialog_add_button(cast(d), I18n.tr("_Cancel"), GTK_RESPONSE_CANCEL.rawValue)
        setAccessibleName(cancel, I18n.tr("Cancel"))
        let ok = gtk_dialog_add_button(cast(d), accept, GTK_RESPONSE_ACCEPT.rawValue)
        setAccessibleName(ok, accept.replacing("_", with: ""))
        if let ok { gtk_style_context_add_class(gtk_widget_get_style_context(ok), "suggested-action") }
        gtk_dialog_set_default_response(cast(d), GTK_RESPONSE_ACCEPT.rawValue)
        return d
    }

    /// "Enviar mis datos": an optional free-text comment, then send.
    static func comment(parent: UnsafeMutablePointer<GtkWidget>, submit: @escaping @MainActor (String) -> String?) {
        let d = dialog(parent: parent, title: I18n.tr("Send my details"), accept: I18n.tr("_Send"))
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_container_set_border_width(cast(box), 12)
        let label = gtk_label_new_with_mnemonic(I18n.tr("_Comment (optional)"))
        gtk_label_set_xalign(cast(label), 0)
        let view = gtk_text_view_new()
        gtk_text_view_set_wrap_mode(cast(view), GTK_WRAP_WORD_CHAR)
        gtk_label_set_mnemonic_widget(cast(label), view)
        setAccessibleName(view, I18n.tr("Comment (optional)"))
        let frame = gtk_scrolled_window_new(nil, nil)
        gtk_widget_set_size_request(frame, 360, 100)
        gtk_scrolled_window_set_shadow_type(cast(frame), GTK_SHADOW_IN)
        gtk_container_add(cast(frame), view)
        let error = gtk_label_new(nil)
        gtk_style_context_add_class(gtk_widget_get_style_context(error), "error")
        gtk_widget_set_no_show_all(error, 1)
        let note = gtk_label_new(I18n.tr("Your name, e-mail, phone and company go to the authors of this site."))
        gtk_label_set_line_wrap(cast(note), 1)
        gtk_label_set_xalign(cast(note), 0)
        gtk_style_context_add_class(gtk_widget_get_style_context(note), "dim-label")
        for w in [label, frame, note, error] { gtk_box_pack_start(cast(box), w, 0, 0, 0) }
        gtk_box_pack_start(cast(gtk_dialog_get_content_area(cast(d))), box, 1, 1, 0)
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
                        gtk_label_set_text(cast(error), problem)
                        gtk_widget_show(error)
                        return
                    }
                }
                gtk_widget_destroy(d)
            })
        gtk_widget_show_all(d)
    }

    /// "Calificar sitio": a rating bar of 5 stars, integer values 0–5 (no star selected is 0).
    static func rating(parent: UnsafeMutablePointer<GtkWidget>, submit: @escaping @MainActor (Int) -> String?) {
        let d = dialog(parent: parent, title: I18n.tr("Rate site"), accept: I18n.tr("_Send rating"))
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_container_set_border_width(cast(box), 12)
        let stars = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)
        setAccessibleName(stars, I18n.tr("Rating"))
        let value = gtk_label_new(nil)
        let error = gtk_label_new(nil)
        gtk_style_context_add_class(gtk_widget_get_style_context(error), "error")
        gtk_widget_set_no_show_all(error, 1)
        final class State { var rating = 0 }
        let state = State()
        var buttons: [UnsafeMutablePointer<GtkWidget>] = []
        func paint() {
            for (i, b) in buttons.enumerated() {
                gtk_button_set_label(cast(b), i < state.rating ? "★" : "☆")
            }
            gtk_label_set_text(cast(value), I18n.localizer.format("%@ of 5", String(state.rating)))
        }
        for n in 1...5 {
            let b: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_label("☆")
            gtk_button_set_relief(cast(b), GTK_RELIEF_NONE)
            setAccessibleName(b, I18n.localizer.plural("%@ star", "%@ stars", n))
            // Clicking the selected star again clears the rating back to 0.
            Signal.connect(
                b, "clicked",
                { () -> Void in
                    state.rating = state.rating == n ? 0 : n
                    paint()
                })
            buttons.append(b)
            gtk_box_pack_start(cast(stars), b, 0, 0, 0)
        }
        paint()
        for w in [stars, value, error] { gtk_box_pack_start(cast(box), w, 0, 0, 0) }
        gtk_box_pack_start(cast(gtk_dialog_get_content_area(cast(d))), box, 1, 1, 0)
        Signal.connect(
            d, "response",
            int: { response in
                if response == GTK_RESPONSE_ACCEPT.rawValue, let problem = submit(state.rating) {
                    gtk_label_set_text(cast(error), problem)
                    gtk_widget_show(error)
                    return
                }
                gtk_widget_destroy(d)
            })
        gtk_widget_show_all(d)
    }

    /// Says what went wrong with something the user asked for (an export, a delete), with a Close button.
    static func problem(parent: UnsafeMutablePointer<GtkWidget>, title: String, detail: String) {
        let d = gtk_dialog_new()
        gtk_window_set_title(cast(d), title)
        if let top = gtk_widget_get_toplevel(parent) { gtk_window_set_transient_for(cast(d), cast(top)) }
        gtk_window_set_modal(cast(d), 1)
        let close = gtk_dialog_add_button(cast(d), I18n.tr("_Close"), GTK_RESPONSE_CLOSE.rawValue)
        setAccessibleName(close, I18n.tr("Close"))
        let label = gtk_label_new(detail)
        gtk_label_set_line_wrap(cast(label), 1)
        gtk_label_set_selectable(cast(label), 1)
        gtk_label_set_max_width_chars(cast(label), 50)
        gtk_container_set_border_width(cast(d), 12)
        gtk_box_pack_start(cast(gtk_dialog_get_content_area(cast(d))), label, 1, 1, 6)
        Signal.connect(d, "response", int: { _ in gtk_widget_destroy(d) })
        gtk_widget_show_all(d)
    }

    /// The QR code of the shared link, drawn large enough for a phone camera.
    static func qr(parent: UnsafeMutablePointer<GtkWidget>, matrix: QRMatrix, url: String) {
        let d = gtk_dialog_new()
        gtk_window_set_title(cast(d), I18n.tr("QR code"))
        if let top = gtk_widget_get_toplevel(parent) { gtk_window_set_transient_for(cast(d), cast(top)) }
        gtk_window_set_modal(cast(d), 1)
        let close = gtk_dialog_add_button(cast(d), I18n.tr("_Close"), GTK_RESPONSE_CLOSE.rawValue)
        setAccessibleName(close, I18n.tr("Close"))
        let area = gtk_drawing_area_new()
        let side = Int32((matrix.size + 8) * 6)
        gtk_widget_set_size_request(area, side, side)
        setAccessibleName(area, I18n.localizer.format("QR code of %@", url))
        final class Box {
            let matrix: QRMatrix
            init(_ m: QRMatrix) { matrix = m }
        }
        let box = Box(matrix)
        let draw:
            @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = {
                widget, cr, data in
                guard let widget, let cr, let data else { return 0 }
                let m = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().matrix
                let w = Double(gtk_widget_get_allocated_width(widget))
                let h = Double(gtk_widget_get_allocated_height(widget))
                let module = min(w, h) / Double(m.size + 8)
                cairo_set_source_rgb(cr, 1, 1, 1)
                cairo_paint(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)
                for y in 0..<m.size {
                    for x in 0..<m.size where m.isDark(x: x, y: y) {
                        cairo_rectangle(cr, (Double(x) + 4) * module, (Double(y) + 4) * module, module, module)
                    }
                }
                cairo_fill(cr)
                return 1
            }
        faro_g_signal_connect(
            UnsafeMutableRawPointer(area), "draw", unsafeBitCast(draw, to: GCallback.self),
            Unmanaged.passRetained(box).toOpaque(),
            { data, _ in
                guard let data else { return }
                Unmanaged<AnyObject>.fromOpaque(data).release()
            })
        let label = gtk_label_new(url)
        gtk_label_set_selectable(cast(label), 1)
        let content = gtk_dialog_get_content_area(cast(d))
        gtk_box_pack_start(cast(content), area, 1, 1, 0)
        gtk_box_pack_start(cast(content), label, 0, 0, 6)
        Signal.connect(d, "response", int: { _ in gtk_widget_destroy(d) })
        gtk_widget_show_all(d)
    }
}
