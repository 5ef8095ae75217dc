internal import CGtk

/// The primary menu's model (the window's menu button): monitoring, the two forms, About and Quit.
@MainActor
enum ApplicationMenu {
    static func make() -> UnsafeMutablePointer<GMenuModel>? {
        let menu = g_menu_new()
        let monitor = g_menu_new()
        g_menu_append(monitor, I18n.tr("Background monitoring"), "app.monitoring")
        g_menu_append(monitor, I18n.tr("Pause for one hour"), "app.pause-hour")
        g_menu_append(monitor, I18n.tr("Pause until tomorrow"), "app.pause-tomorrow")
        g_menu_append(monitor, I18n.tr("Start at login"), "app.autostart")
        g_menu_append_section(menu, nil, cast(monitor, to: GMenuModel.self))
        let forms = g_menu_new()
        g_menu_append(forms, I18n.tr("My contact details"), "app.contact")
        g_menu_append(forms, I18n.tr("Register my business"), "app.register")
        let other = g_menu_new()
        g_menu_append(other, I18n.tr("About Faro"), "app.about")
        g_menu_append(other, I18n.tr("Quit"), "app.quit")
        g_menu_append_section(menu, nil, cast(forms, to: GMenuModel.self))
        g_menu_append_section(menu, nil, cast(other, to: GMenuModel.self))
        return cast(menu, to: GMenuModel.self)
    }
}
