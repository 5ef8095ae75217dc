import FaroCore

/// Faro's views and styles (`Resources/`: GtkBuilder `.ui` templates and CSS), compiled by
/// `glib-compile-resources` at build time and embedded here by the CompileResources plugin. FaroUI registers the
/// bundle with GIO once at start; the templates are then found under `resourcePath`.
public enum FaroResources {
    /// Where the bundle's files are, as GResource paths.
    public static let resourcePath = "/io/github/faro/Faro/"

    /// The bundle's bytes.
    public static func bundle() -> [UInt8] {
        bundleBase64.withUTF8Buffer { Base64.decode(Array($0)) } ?? []
    }
}
