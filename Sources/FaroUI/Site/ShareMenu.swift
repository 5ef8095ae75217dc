internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The "Compartir" menu: copy the link, e-mail, WhatsApp, Telegram, Facebook, X, LinkedIn (opened with the
/// desktop's default handler) and a QR code. Always the beacon's own URL, never with the device id.
@MainActor
enum ShareMenu {
    static func make(
        url: String, title: String, services: any SiteServices,
        parent: UnsafeMutablePointer<GtkWidget>
    ) -> UnsafeMutablePointer<GtkWidget>? {
        let shared = ShareLinks.sharedURL(url)
        let menu = gtk_menu_new()
        func item(_ label: String, _ action: @escaping @MainActor () -> Void) {
            let w = gtk_menu_item_new_with_label(label)
            Signal.connect(w, "activate") { action() }
            gtk_menu_shell_append(cast(menu), w)
        }
        // `ShareLinks.all` starts with the copy target: one "Copy link", translated like the rest.
        for (target, link) in ShareLinks.all(url: shared, title: title) {
            switch target {
            case .copyLink:
                item(I18n.tr("Copy link")) {
                    gtk_clipboard_set_text(gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0)), link, -1)
                }
            case .email: item(I18n.tr("E-mail")) { _ = g_app_info_launch_default_for_uri(link, nil, nil) }
            default: item(target.label) { _ = g_app_info_launch_default_for_uri(link, nil, nil) }
            }
        }
        item(I18n.tr("QR code")) {
            guard let matrix = services.qrCode(for: shared) else { return }
            FeedbackDialogs.qr(parent: parent, matrix: matrix, url: shared)
        }
        gtk_widget_show_all(menu)
        return menu
    }
}
