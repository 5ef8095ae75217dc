internal import CGtk
import FaroResources

/// A GtkBuilder view from Faro's resource bundle (`Resources/ui/NAME.ui`): built once per use, its objects found
/// by id. Strings marked `translatable` in the template are translated through the `faro` text domain.
///
/// The builder owns the objects it made until someone else references them (a window its children, a list its
/// rows): keep the template as long as its view, or take a reference to what must outlive it.
@MainActor
final class Template {
    private let builder: UnsafeMutablePointer<GtkBuilder>
    let name: String

    /// Builds `ui/NAME.ui`. The bundle is registered on first use (`ResourceBundle.register`).
    init(_ name: String) {
        ResourceBundle.register()
        self.name = name
        builder = gtk_builder_new()
        gtk_builder_set_translation_domain(builder, I18n.domain)
        var error: UnsafeMutablePointer<GError>?
        if gtk_builder_add_from_resource(builder, FaroResources.resourcePath + "ui/\(name).ui", &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            // A template that does not load is a build defect (the bundle is compiled from Resources/ with the
            // binary), never something a user can cause or fix.
            preconditionFailure("Faro's view \(name).ui does not load: \(message)")
        }
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(builder)) }

    /// The object with `id`, typed as the caller needs it (the builder keeps it alive while the builder lives;
    /// widgets in a window are kept by their parent).
    func object<T>(_ id: String, as type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        guard let object = gtk_builder_get_object(builder, id) else {
            preconditionFailure("Faro's view \(name).ui has no object '\(id)'")
        }
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: T.self)
    }

    /// A widget with `id`.
    func widget(_ id: String) -> UnsafeMutablePointer<GtkWidget> { object(id) }

    /// A non-widget object (GMenuModel …) as an opaque pointer.
    func opaque(_ id: String) -> OpaquePointer { OpaquePointer(object(id, as: GObject.self)) }
}

/// Registers the embedded GResource bundle (views and CSS) with GIO, once, and loads `style.css` on the screen.
@MainActor
enum ResourceBundle {
    private static var registered = false

    static func register() {
        guard !registered else { return }
        registered = true
        let bytes = FaroResources.bundle()
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_new_from_data(data, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            preconditionFailure("Faro's resource bundle is damaged: \(message)")
        }
        g_resources_register(resource)
        g_resource_unref(resource)
    }

    /// Faro's own CSS on the default screen, above the theme.
    static func installStyle() {
        register()
        guard let screen = gdk_screen_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_resource(provider, FaroResources.resourcePath + "style.css")
        gtk_style_context_add_provider_for_screen(
            screen, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
