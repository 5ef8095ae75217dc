internal import CGtk
import FaroCore
import FaroGLib

/// Following links in the readable text: a primary click on a link, or Enter with the text cursor on one (F7 shows
/// the cursor), opens it.
extension ReadableTextView {
    func link(at iter: inout GtkTextIter) -> String? {
        let tags = gtk_text_iter_get_tags(&iter)
        defer { g_slist_free(tags) }
        var node = tags
        while let current = node {
            if let data = current.pointee.data, let href = linkTags[data.assumingMemoryBound(to: GtkTextTag.self)] {
                return href
            }
            node = current.pointee.next
        }
        return nil
    }

    func handle(_ event: UnsafeMutableRawPointer?) {
        guard let event else { return }
        let type = event.assumingMemoryBound(to: GdkEventAny.self).pointee.type
        if type == GDK_KEY_PRESS {
            activateLinkAtCursor(event.assumingMemoryBound(to: GdkEventKey.self).pointee.keyval)
            return
        }
        guard type == GDK_BUTTON_RELEASE else { return }
        let button = event.assumingMemoryBound(to: GdkEventButton.self).pointee
        guard button.button == 1 else { return }
        var bx: Int32 = 0
        var by: Int32 = 0
        gtk_text_view_window_to_buffer_coords(
            textView, GTK_TEXT_WINDOW_WIDGET, Int32(button.x), Int32(button.y), &bx, &by)
        var iter = GtkTextIter()
        guard gtk_text_view_get_iter_at_location(textView, &iter, bx, by) != 0, let href = link(at: &iter) else {
            return
        }
        activate(href)
    }

    /// Enter on a link follows it, as a click does: keyboard users (F7 shows the cursor) and screen readers, which
    /// move the cursor through the accessible text, reach links too.
    private func activateLinkAtCursor(_ keyval: guint) {
        guard keyval == guint(GDK_KEY_Return) || keyval == guint(GDK_KEY_KP_Enter) || keyval == guint(GDK_KEY_ISO_Enter)
        else { return }
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer, &iter, gtk_text_buffer_get_insert(buffer))
        if let href = link(at: &iter) { activate(href) }
    }
}
