internal import CGtk
import FaroGLib

/// A page of the main window's stack whose content is built the first time it is shown, not before the window's
/// first frame: the stack switcher needs the page to exist, the user needs its content only once they open it.
@MainActor
final class LazyPage {
    /// The box the stack holds; the content goes inside it when it is first mapped.
    let root: UnsafeMutablePointer<GtkWidget>
    private var build: (@MainActor () -> UnsafeMutablePointer<GtkWidget>)?

    init(_ build: @escaping @MainActor () -> UnsafeMutablePointer<GtkWidget>) {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        self.build = build
        Signal.connect(root, "map") { [weak self] in self?.fill() }
    }

    /// Builds the content now if it was not yet (it is shown at once when the page is on screen).
    func fill() {
        guard let build else { return }
        self.build = nil
        let content = build()
        gtk_box_pack_start(cast(root), content, 1, 1, 0)
        gtk_widget_show_all(content)
    }
}
