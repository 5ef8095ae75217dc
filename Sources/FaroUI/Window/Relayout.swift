internal import CGtk
import FaroGLib

/// A list whose rows change while its page of the window's stack is hidden (beacons appearing, a page saved, visits
/// read again as the page comes back) can be left with GTK 3 believing a resize is already on its way up: rows
/// added after that are never laid out, are not drawn, and a click on the list finds no row under the pointer.
/// Queueing a resize on the list and on every ancestor, each time the list is shown, puts the window's layout back
/// in step (asking the list alone, or its page, does not).
@MainActor
enum Relayout {
    /// Does that for `list` from now on, just after each time it is mapped.
    static func whenShown(_ list: UnsafeMutablePointer<GtkWidget>) {
        Signal.connect(list, "map") { () -> Void in
            g_object_ref(UnsafeMutableRawPointer(list))
            MainContextSources.addIdle {
                MainActor.assumeIsolated { queueResizeUpward(from: list) }
                g_object_unref(UnsafeMutableRawPointer(list))
                return false
            }
        }
    }

    private static func queueResizeUpward(from widget: UnsafeMutablePointer<GtkWidget>) {
        var next: UnsafeMutablePointer<GtkWidget>? = widget
        while let current = next {
            gtk_widget_queue_resize(current)
            next = gtk_widget_get_parent(current)
        }
    }
}
