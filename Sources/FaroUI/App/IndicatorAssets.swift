internal import CGtk
import FaroGLib

/// Check and radio marks drawn from the theme's pre-rendered images instead of its SVGs.
///
/// GTK's built-in themes give the marks of check boxes, check menu items and radios as `image(svg, png)`: the SVG
/// wins whenever the SVG loader exists, and loading it pulls librsvg (about 6 MB resident, several milliseconds)
/// into the process before the first frame, only for a tick in the primary menu. The same themes ship the
/// pre-rendered `.symbolic.png` of each mark beside the SVG; this provider asks for those at scale 1 and keeps
/// the SVG (or the theme's @2 image) for scale 2, so the marks look the same. Themes other than GTK's own are
/// left alone.
enum IndicatorAssets {
    /// The CSS for `theme` (a `gtk-theme-name`), or nil when the theme is not one of GTK's built-in ones.
    static func css(forTheme theme: String) -> String? {
        let folder: String
        let hasDoubleSize: Bool
        switch theme {
        case "Adwaita", "Adwaita-dark":
            folder = "Adwaita"
            hasDoubleSize = false
        case "HighContrast", "HighContrastInverse":
            folder = "HighContrast"
            hasDoubleSize = true
        default:
            return nil
        }
        let base = "resource:///org/gtk/libgtk/theme/\(folder)/assets/"
        func source(_ mark: String) -> String {
            let single = "-gtk-recolor(url(\"\(base)\(mark)-symbolic.symbolic.png\"))"
            let double =
                hasDoubleSize
                ? "-gtk-recolor(url(\"\(base)\(mark)@2-symbolic.symbolic.png\"))"
                : "-gtk-recolor(url(\"\(base)\(mark)-symbolic.svg\"))"
            return "-gtk-icon-source: -gtk-scaled(\(single), \(double));"
        }
        return """
            check:checked { \(source("check")) }
            check:indeterminate, radio:indeterminate { \(source("dash")) }
            radio:checked { \(source("bullet")) }
            """
    }

    /// Installs the provider on the default screen for the current theme, and follows theme changes.
    @MainActor static func install() {
        guard let settings = gtk_settings_get_default(), let screen = gdk_screen_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_style_context_add_provider_for_screen(
            screen, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        let load = {
            let css = css(forTheme: themeName(settings)) ?? ""
            gtk_css_provider_load_from_data(provider, css, -1, nil)
        }
        load()
        Signal.connect(settings, "notify::gtk-theme-name", pointer: { _ in load() })
    }

    private static func themeName(_ settings: UnsafeMutablePointer<GtkSettings>) -> String {
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
        g_object_get_property(
            UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self),
            "gtk-theme-name", &value)
        defer { g_value_unset(&value) }
        return g_value_get_string(&value).map { String(cString: $0) } ?? ""
    }
}
