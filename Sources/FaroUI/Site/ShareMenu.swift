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
        item(I18n.tr("Copy link")) {
            let clipboard = gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0))
            gtk_clipboard_set_text(clipboard, shared, -1)
        }
        for (target, link) in ShareLinks.all(url: shared, title: title) {
            item(target == .email ? I18n.tr("E-mail") : target.label) {
                _ = g_app_info_launch_default_for_uri(link, nil, nil)
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
