internal import CGio
import Glibc

/// Reading D-Bus replies (GVariants) into plain Swift values, checking every type on the way: a misbehaving peer
/// can send anything, and a value of the wrong type is skipped, never trusted. Values are borrowed `GVariant *`
/// (OpaquePointer); nothing here takes ownership of them.
public enum GVariantReading {
    /// Whether `value` has exactly the D-Bus type `type` (e.g. `a{sv}`).
    public static func has(_ value: OpaquePointer, type: String) -> Bool {
        guard let actual = g_variant_get_type_string(value) else { return false }
        return strcmp(actual, type) == 0
    }

    /// The value's D-Bus type string (`s`, `a{sv}` …), for messages.
    public static func typeString(_ value: OpaquePointer) -> String {
        g_variant_get_type_string(value).map { String(cString: $0) } ?? "?"
    }

    /// The number of children of a container (0 for anything else).
    public static func count(_ value: OpaquePointer) -> Int {
        g_variant_is_container(value) != 0 ? Int(g_variant_n_children(value)) : 0
    }

    /// Calls `body` with the child at `index` of a container (borrowed for the call), or returns nil.
    public static func withChild<T>(_ value: OpaquePointer, _ index: Int, _ body: (OpaquePointer) -> T?) -> T? {
        guard index < count(value), let child = g_variant_get_child_value(value, gsize(index)) else { return nil }
        defer { g_variant_unref(child) }
        return body(child)
    }

    /// The text of an `s` (or `o`, with `objectPath`) value; nil for any other type.
    public static func string(_ value: OpaquePointer, objectPath: Bool = false) -> String? {
        guard has(value, type: "s") || (objectPath && has(value, type: "o")),
            let text = g_variant_get_string(value, nil)
        else { return nil }
        return String(cString: text)
    }

    /// The value of a `b`; nil for any other type.
    public static func boolean(_ value: OpaquePointer) -> Bool? {
        has(value, type: "b") ? g_variant_get_boolean(value) != 0 : nil
    }

    /// A string (`s` or `o`) child of a tuple.
    public static func stringChild(_ tuple: OpaquePointer, _ index: Int) -> String? {
        withChild(tuple, index) { string($0, objectPath: true) }
    }

    /// The strings of an `as` array ([] for any other type).
    public static func strings(_ array: OpaquePointer) -> [String] {
        guard has(array, type: "as") else { return [] }
        var out: [String] = []
        for index in 0..<count(array) {
            if let text = withChild(array, index, { string($0) }) { out.append(text) }
        }
        return out
    }

    /// Calls `body(key, value)` for each entry of an `a{sv}` dictionary, the value unboxed from its variant.
    public static func forEachEntry(_ dictionary: OpaquePointer, _ body: (UnsafePointer<CChar>, OpaquePointer) -> Void)
    {
        guard has(dictionary, type: "a{sv}") else { return }
        for index in 0..<count(dictionary) {
            guard let entry = g_variant_get_child_value(dictionary, gsize(index)) else { continue }
            defer { g_variant_unref(entry) }
            guard let key = g_variant_get_child_value(entry, 0) else { continue }
            defer { g_variant_unref(key) }
            guard let boxed = g_variant_get_child_value(entry, 1) else { continue }
            defer { g_variant_unref(boxed) }
            guard let value = g_variant_get_variant(boxed), let name = g_variant_get_string(key, nil) else { continue }
            body(name, value)
            g_variant_unref(value)
        }
    }

    /// The value of `key` in an `a{sv}` dictionary, if present, passed to `body` (borrowed for the call).
    public static func lookup<T>(_ dictionary: OpaquePointer, _ key: String, _ body: (OpaquePointer) -> T?) -> T? {
        var found: T?
        forEachEntry(dictionary) { name, value in
            if found == nil, strcmp(name, key) == 0 { found = body(value) }
        }
        return found
    }

    /// Calls `body(interface, properties)` for each entry of an `a{sa{sv}}` interfaces dictionary.
    public static func forEachInterface(_ interfaces: OpaquePointer, _ body: (String, OpaquePointer) -> Void) {
        guard has(interfaces, type: "a{sa{sv}}") else { return }
        for index in 0..<count(interfaces) {
            guard let entry = g_variant_get_child_value(interfaces, gsize(index)) else { continue }
            defer { g_variant_unref(entry) }
            guard let name = stringChild(entry, 0), let properties = g_variant_get_child_value(entry, 1) else {
                continue
            }
            body(name, properties)
            g_variant_unref(properties)
        }
    }

    /// Calls `body(path, interfaces)` for each object of an ObjectManager `GetManagedObjects` reply
    /// (`(a{oa{sa{sv}}})`); anything of another shape yields nothing.
    public static func forEachManagedObject(_ reply: OpaquePointer, _ body: (String, OpaquePointer) -> Void) {
        guard has(reply, type: "(a{oa{sa{sv}}})") else { return }
        _ = withChild(reply, 0) { objects -> Void? in
            for index in 0..<count(objects) {
                _ = withChild(objects, index) { entry -> Void? in
                    guard let path = stringChild(entry, 0) else { return nil }
                    return withChild(entry, 1) { interfaces in body(path, interfaces) }
                }
            }
            return nil
        }
    }

    /// A tuple of strings (`NameHasOwner("org.bluez")`, logind's `Inhibit("sleep", "Faro", why, "delay")`), as a
    /// floating reference consumed by the call.
    public static func stringTuple(_ texts: String...) -> OpaquePointer? {
        var items: [OpaquePointer?] = texts.map { g_variant_new_string($0) }
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// The arguments of `org.gtk.Actions.Activate` for a parameterless action (`(sava{sv})`: the name, no
    /// parameter, no platform data), as a floating reference consumed by the call.
    public static func actionActivation(_ action: String) -> OpaquePointer? {
        guard let variant = g_variant_type_new("v"), let entry = g_variant_type_new("{sv}") else { return nil }
        defer {
            g_variant_type_free(variant)
            g_variant_type_free(entry)
        }
        var items: [OpaquePointer?] = [
            g_variant_new_string(action), g_variant_new_array(variant, nil, 0), g_variant_new_array(entry, nil, 0),
        ]
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// Drops a reference to a GVariant (replies of `callSync`).
    public static func release(_ value: OpaquePointer?) {
        if let value { g_variant_unref(value) }
    }
}
