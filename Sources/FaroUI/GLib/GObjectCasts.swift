internal import CGtk

/// GTK's C types are distinct Swift pointer types; these view one GObject as another (the C casts `GTK_WIDGET()`,
/// `GTK_WINDOW()` …, which are macros Swift cannot import).
@inline(__always)
func cast<From, To>(_ pointer: UnsafeMutablePointer<From>?, to: To.Type = To.self) -> UnsafeMutablePointer<To>? {
    UnsafeMutableRawPointer(pointer)?.assumingMemoryBound(to: To.self)
}

/// The same for pointers GTK hands over as `gpointer`.
@inline(__always)
func cast<To>(_ pointer: UnsafeMutableRawPointer?, to: To.Type = To.self) -> UnsafeMutablePointer<To>? {
    pointer?.assumingMemoryBound(to: To.self)
}

/// Any GTK object as a widget.
@inline(__always)
func widget<T>(_ pointer: UnsafeMutablePointer<T>?) -> UnsafeMutablePointer<GtkWidget>? { cast(pointer) }

/// Sets the accessible name (what a screen reader says, and what AT-SPI tests find) of a widget.
func setAccessibleName<T>(_ pointer: UnsafeMutablePointer<T>?, _ name: String) {
    guard let w = widget(pointer), let accessible = gtk_widget_get_accessible(w) else { return }
    atk_object_set_name(accessible, name)
}

/// Sets the accessible description of a widget.
func setAccessibleDescription<T>(_ pointer: UnsafeMutablePointer<T>?, _ text: String) {
    guard let w = widget(pointer), let accessible = gtk_widget_get_accessible(w) else { return }
    atk_object_set_description(accessible, text)
}

/// The same for GObjects Swift imports as opaque (GMenu, GSimpleAction …).
@inline(__always)
func cast<To>(_ pointer: OpaquePointer?, to: To.Type = To.self) -> UnsafeMutablePointer<To>? {
    UnsafeMutableRawPointer(pointer)?.assumingMemoryBound(to: To.self)
}
