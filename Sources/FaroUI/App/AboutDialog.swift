internal import CGtk
import FaroGLib

/// "Acerca de Faro": what Faro is, and the device id sent with each page (docs/content-view.md), so users see it.
@MainActor
enum AboutDialog {
    static func present(parent: UnsafeMutablePointer<GtkWidget>?, deviceID: String, icon: String) {
        let about = gtk_about_dialog_new()
        gtk_window_set_transient_for(cast(about), cast(parent))
        gtk_window_set_modal(cast(about), 1)
        gtk_about_dialog_set_program_name(cast(about), "Faro")
        gtk_about_dialog_set_logo_icon_name(cast(about), icon)
        gtk_about_dialog_set_comments(
            cast(about),
            I18n.tr("Finds the beacons near you and opens the sites of their places.") + "\n\n"
                + I18n.tr("Device id sent with each page: ") + deviceID)
        gtk_about_dialog_set_license_type(cast(about), GTK_LICENSE_GPL_3_0)
        Signal.connect(about, "response", int: { _ in gtk_widget_destroy(about) })
        gtk_widget_show_all(about)
    }
}
