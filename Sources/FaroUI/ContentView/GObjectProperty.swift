internal import CGtk

/// `g_object_set_property` with the few value types the text tags use (g_object_set is variadic).
enum Property {
    // GLib's fundamental type ids: G_TYPE_MAKE_FUNDAMENTAL(n) = n << 2.
    private static let intType = GType(6 << 2)
    private static let doubleType = GType(15 << 2)
    private static let stringType = GType(16 << 2)

    static func set(_ object: UnsafeMutablePointer<GObject>, _ name: String, int: Int32) {
        set(object, name, type: intType) { g_value_set_int(&$0, int) }
    }

    static func set(_ object: UnsafeMutablePointer<GObject>, _ name: String, double: Double) {
        set(object, name, type: doubleType) { g_value_set_double(&$0, double) }
    }

    static func set(_ object: UnsafeMutablePointer<GObject>, _ name: String, string: String) {
        set(object, name, type: stringType) { g_value_set_string(&$0, string) }
    }

    /// One GValue of `type`, filled by `fill`, set as property `name` and released.
    private static func set(
        _ object: UnsafeMutablePointer<GObject>, _ name: String, type: GType,
        fill: (inout GValue) -> Void
    ) {
        var value = GValue()
        g_value_init(&value, type)
        fill(&value)
        g_object_set_property(object, name, &value)
        g_value_unset(&value)
    }

    static func set(_ object: UnsafeMutablePointer<GObject>, _ name: String, enum raw: Int32, type: GType) {
        var value = GValue()
        g_value_init(&value, type)
        g_value_set_enum(&value, raw)
        g_object_set_property(object, name, &value)
        g_value_unset(&value)
    }
}
