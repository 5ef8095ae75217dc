internal import CAppIndicator
internal import CGtk
import FaroGLib

/// The tray icon: a StatusNotifierItem (libayatana-appindicator3) with Abrir, the monitoring check item, the two
/// pauses and Salir, and a label with the number of nearby places. Without a tray host the item simply is not
/// shown; the app goes on through its window and notifications.
@MainActor
final class TrayIcon {
    struct Actions {
        var open: @MainActor () -> Void
        var setMonitoring: @MainActor (Bool) -> Void
        var pauseHour: @MainActor () -> Void
        var pauseTomorrow: @MainActor () -> Void
        var quit: @MainActor () -> Void
    }

    private let indicator: UnsafeMutablePointer<AppIndicator>
    private let monitoring: UnsafeMutablePointer<GtkWidget>
    private var updating = false
    /// The count shown now (-1: none yet), so the once-a-second tick sends nothing to the tray host when it holds.
    private var shownCount = -1
    private let actions: Actions

    init?(appID: String, actions: Actions) {
        self.actions = actions
        guard let indicator = app_indicator_new(appID, appID, APP_INDICATOR_CATEGORY_APPLICATION_STATUS) else {
            return nil
        }
        self.indicator = indicator
        app_indicator_set_title(indicator, "Faro")
        let menu = gtk_menu_new()
        func item(_ label: String, _ action: @escaping @MainActor () -> Void) {
            let w = gtk_menu_item_new_with_mnemonic(label)
            Signal.connect(w, "activate") { action() }
            gtk_menu_shell_append(cast(menu), w)
        }
        item(I18n.tr("_Open Faro"), actions.open)
        monitoring = gtk_check_menu_item_new_with_mnemonic(I18n.tr("Background _monitoring"))
        gtk_menu_shell_append(cast(menu), monitoring)
        item(I18n.tr("Pause for one _hour"), actions.pauseHour)
        item(I18n.tr("Pause until _tomorrow"), actions.pauseTomorrow)
        gtk_menu_shell_append(cast(menu), gtk_separator_menu_item_new())
        item(I18n.tr("_Quit"), actions.quit)
        gtk_widget_show_all(menu)
        app_indicator_set_menu(indicator, cast(menu))
        Signal.connect(monitoring, "toggled") { [weak self] in
            guard let self, !self.updating else { return }
            self.actions.setMonitoring(gtk_check_menu_item_get_active(cast(self.monitoring)) != 0)
        }
        app_indicator_set_status(indicator, APP_INDICATOR_STATUS_ACTIVE)
    }

    /// Mirrors the monitoring state (the window menu and the tray always agree).
    func setMonitoring(_ on: Bool) {
        updating = true
        gtk_check_menu_item_set_active(cast(monitoring), on ? 1 : 0)
        updating = false
    }

    /// "3" next to the icon and "3 places nearby" as its title; nothing when there are none.
    func setNearbyCount(_ count: Int) {
        guard count != shownCount else { return }
        shownCount = count
        app_indicator_set_label(indicator, count > 0 ? String(count) : "", "99")
        let title = count > 0 ? I18n.localizer.plural("%@ place nearby", "%@ places nearby", count) : "Faro"
        app_indicator_set_title(indicator, title)
    }
}
