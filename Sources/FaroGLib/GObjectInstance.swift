/// A pointer to a GObject instance, however Swift imports it: typed (`UnsafeMutablePointer<GtkWidget>`) for the
/// GTK and GDK structs, or opaque (`OpaquePointer`) for GIO's incomplete types (GMenu, GSimpleAction, GSettings …).
/// `Signal` takes either through this, so each handler shape is written once.
public protocol GObjectInstance {
    /// The instance as GLib's `gpointer`.
    var instancePointer: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GObjectInstance {
    public var instancePointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectInstance {
    public var instancePointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}
