internal import CGtk

/// The primary menu's model (`Resources/ui/menus.ui`): monitoring, the two forms, About and Quit.
@MainActor
enum ApplicationMenu {
    static func make() -> UnsafeMutablePointer<GMenuModel> {
        let template = Template("menus")
        let menu: UnsafeMutablePointer<GMenuModel> = template.object("primary-menu")
        // The builder goes away with `template`: keep the model.
        g_object_ref(UnsafeMutableRawPointer(menu))
        return menu
    }
}
