internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The main window: a header bar with the page switcher and the primary menu, the "Beacons" page and the
/// "Guardados" page, and a status line for pending submissions.
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let beacons = BeaconListPage()
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let outboxBar: UnsafeMutablePointer<GtkWidget>
    private let outboxLabel: UnsafeMutablePointer<GtkWidget>
    /// "Retry now" on the outbox line.
    var onRetry: () -> Void = {}

    init(application: UnsafeMutablePointer<GtkApplication>, menu: UnsafeMutablePointer<GMenuModel>) {
        window = gtk_application_window_new(application)
        gtk_window_set_title(cast(window), "Faro")
        // Wide enough for the content view's action bar, so opening a site does not widen the window.
        gtk_window_set_default_size(cast(window), 600, 640)
        gtk_window_set_icon_name(cast(window), FaroApplication.appID)
        setAccessibleName(window, "Faro")

        stack = gtk_stack_new()
        gtk_stack_set_transition_type(cast(stack), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_add_titled(cast(stack), beacons.root, "beacons", I18n.tr("Beacons"))

        let header = gtk_header_bar_new()
        gtk_header_bar_set_show_close_button(cast(header), 1)
        let switcher = gtk_stack_switcher_new()
        gtk_stack_switcher_set_stack(cast(switcher), cast(stack))
        setAccessibleName(switcher, I18n.tr("Pages"))
        gtk_header_bar_set_custom_title(cast(header), switcher)
        let menuButton = gtk_menu_button_new()
        gtk_menu_button_set_menu_model(cast(menuButton), menu)
        gtk_menu_button_set_use_popover(cast(menuButton), 1)
        let icon = gtk_image_new_from_icon_name("open-menu-symbolic", GTK_ICON_SIZE_BUTTON)
        gtk_button_set_image(cast(menuButton), icon)
        setAccessibleName(menuButton, I18n.tr("Main menu"))
        gtk_widget_set_tooltip_text(menuButton, I18n.tr("Main menu"))
        gtk_header_bar_pack_end(cast(header), menuButton)
        gtk_window_set_titlebar(cast(window), header)

        status = gtk_label_new(nil)
        gtk_label_set_xalign(cast(status), 0)
        // A long list of nearby places wraps instead of widening the window.
        gtk_label_set_line_wrap(cast(status), 1)
        gtk_widget_set_margin_start(status, 12)
        gtk_widget_set_margin_end(status, 12)
        gtk_widget_set_margin_top(status, 4)
        gtk_widget_set_margin_bottom(status, 4)
        gtk_style_context_add_class(gtk_widget_get_style_context(status), "dim-label")
        gtk_widget_set_no_show_all(status, 1)

        outboxBar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        outboxLabel = gtk_label_new(nil)
        gtk_label_set_xalign(cast(outboxLabel), 0)
        gtk_widget_set_hexpand(outboxLabel, 1)
        let retry = gtk_button_new_with_label(I18n.tr("Retry now"))
        setAccessibleName(retry, I18n.tr("Retry now"))
        gtk_box_pack_start(cast(outboxBar), outboxLabel, 1, 1, 0)
        gtk_box_pack_end(cast(outboxBar), retry, 0, 0, 0)
        gtk_container_set_border_width(cast(outboxBar), 6)
        gtk_widget_set_no_show_all(outboxBar, 1)
        gtk_widget_show(outboxLabel)
        gtk_widget_show(retry)

        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_pack_start(cast(box), stack, 1, 1, 0)
        gtk_box_pack_end(cast(box), status, 0, 0, 0)
        gtk_box_pack_end(cast(box), outboxBar, 0, 0, 0)
        gtk_container_add(cast(window), box)
        // Everything but the toplevel: present() maps the window once, with all its pages in place.
        gtk_widget_show_all(box)
        gtk_widget_show_all(header)
        Signal.connect(retry, "clicked") { [weak self] in self?.onRetry() }
    }

    /// The outbox line ("2 envíos pendientes" + Retry now); hidden when nothing waits.
    func setOutboxStatus(_ text: String?) {
        if let text {
            gtk_label_set_text(cast(outboxLabel), text)
            gtk_widget_show(outboxBar)
        } else {
            gtk_widget_hide(outboxBar)
        }
    }

    /// Adds a page to the switcher (Guardados, and later ones).
    func addPage(_ widget: UnsafeMutablePointer<GtkWidget>, name: String, title: String) {
        gtk_stack_add_titled(cast(stack), widget, name, title)
        gtk_widget_show_all(widget)
    }

    /// Adds a page that the switcher does not list (the content view, reached from a row).
    func addHiddenPage(_ widget: UnsafeMutablePointer<GtkWidget>, name: String) {
        gtk_stack_add_named(cast(stack), widget, name)
        gtk_widget_show_all(widget)
    }

    /// Shows a page by name ("beacons", "saved").
    func showPage(_ name: String) {
        gtk_stack_set_visible_child_name(cast(stack), name)
    }

    /// The status line under the pages; hidden when empty.
    func setStatus(_ text: String?) {
        if let text, !text.isEmpty {
            gtk_label_set_text(cast(status), text)
            gtk_widget_show(status)
        } else {
            gtk_widget_hide(status)
        }
    }

    func present() { gtk_window_present(cast(window)) }
}
