internal import CGio
import Glibc

/// The `org.bluez.Adapter1` properties Faro reads.
struct AdapterProperties: Equatable {
    var powered: Bool?
    var discovering: Bool?
}

/// Reading BlueZ's GVariant values into plain Swift values, checking every type on the way (a misbehaving peer
/// can send anything), and building the few values Faro sends.
enum BlueZVariant {
    /// Whether `value` has exactly the D-Bus type `type` (e.g. `a{sv}`).
    static func has(_ value: OpaquePointer, type: String) -> Bool {
        guard let actual = g_variant_get_type_string(value) else { return false }
        return strcmp(actual, type) == 0
    }

    /// Calls `body(key, value)` for each entry of an `a{sv}` dictionary, the value unboxed from its variant.
    static func forEachEntry(_ dictionary: OpaquePointer, _ body: (UnsafePointer<CChar>, OpaquePointer) -> Void) {
        guard has(dictionary, type: "a{sv}") else { return }
        let count = g_variant_n_children(dictionary)
        var index: gsize = 0
        while index < count {
            defer { index += 1 }
            guard let entry = g_variant_get_child_value(dictionary, index) else { continue }
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

    /// The strings of an `as` array.
    static func strings(_ array: OpaquePointer) -> [String] {
        guard has(array, type: "as") else { return [] }
        var out: [String] = []
        let count = g_variant_n_children(array)
        var index: gsize = 0
        while index < count {
            if let item = g_variant_get_child_value(array, index) {
                if let text = g_variant_get_string(item, nil) { out.append(String(cString: text)) }
                g_variant_unref(item)
            }
            index += 1
        }
        return out
    }

    /// A string (`s` or `o`) child of a tuple.
    static func stringChild(_ tuple: OpaquePointer, _ index: Int) -> String? {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return nil }
        defer { g_variant_unref(child) }
        guard has(child, type: "s") || has(child, type: "o"), let text = g_variant_get_string(child, nil) else {
            return nil
        }
        return String(cString: text)
    }

    /// Device1 properties from an `a{sv}` dictionary (InterfacesAdded, GetManagedObjects, PropertiesChanged).
    static func deviceProperties(_ dictionary: OpaquePointer, invalidated: [String] = []) -> DeviceProperties {
        var p = DeviceProperties(invalidated: invalidated)
        forEachEntry(dictionary) { key, value in
            if strcmp(key, "RSSI") == 0 {
                if has(value, type: "n") { p.rssi = g_variant_get_int16(value) } else { p.malformed.append("RSSI") }
            } else if strcmp(key, "ManufacturerData") == 0 {
                if let data = manufacturerData(value) {
                    p.manufacturerData = data
                } else {
                    p.malformed.append("ManufacturerData")
                }
            } else if strcmp(key, "Address") == 0 {
                if has(value, type: "s"), let text = g_variant_get_string(value, nil) {
                    p.address = String(cString: text)
                } else {
                    p.malformed.append("Address")
                }
            } else if strcmp(key, "Adapter") == 0 {
                if has(value, type: "o"), let text = g_variant_get_string(value, nil) {
                    p.adapter = String(cString: text)
                }
            }
        }
        return p
    }

    /// `a{qv}` with `ay` values, or nil when the shape is anything else.
    static func manufacturerData(_ value: OpaquePointer) -> [UInt16: [UInt8]]? {
        guard has(value, type: "a{qv}") else { return nil }
        var out: [UInt16: [UInt8]] = [:]
        let count = g_variant_n_children(value)
        var index: gsize = 0
        while index < count {
            defer { index += 1 }
            guard let entry = g_variant_get_child_value(value, index) else { continue }
            defer { g_variant_unref(entry) }
            guard let key = g_variant_get_child_value(entry, 0) else { continue }
            defer { g_variant_unref(key) }
            guard let boxed = g_variant_get_child_value(entry, 1) else { continue }
            defer { g_variant_unref(boxed) }
            guard let bytes = g_variant_get_variant(boxed) else { continue }
            defer { g_variant_unref(bytes) }
            guard has(bytes, type: "ay") else { return nil }
            var length: gsize = 0
            let start = g_variant_get_fixed_array(bytes, &length, 1)
            out[g_variant_get_uint16(key)] =
                length == 0 || start == nil
                ? [] : Array(UnsafeRawBufferPointer(start: start, count: Int(length)))
        }
        return out
    }

    /// Adapter1 properties from an `a{sv}` dictionary.
    static func adapterProperties(_ dictionary: OpaquePointer) -> AdapterProperties {
        var p = AdapterProperties()
        forEachEntry(dictionary) { key, value in
            guard has(value, type: "b") else { return }
            if strcmp(key, "Powered") == 0 { p.powered = g_variant_get_boolean(value) != 0 }
            if strcmp(key, "Discovering") == 0 { p.discovering = g_variant_get_boolean(value) != 0 }
        }
        return p
    }

    /// Calls `body(interface, properties)` for each entry of an `a{sa{sv}}` interfaces dictionary.
    static func forEachInterface(_ interfaces: OpaquePointer, _ body: (String, OpaquePointer) -> Void) {
        guard has(interfaces, type: "a{sa{sv}}") else { return }
        let count = g_variant_n_children(interfaces)
        var index: gsize = 0
        while index < count {
            defer { index += 1 }
            guard let entry = g_variant_get_child_value(interfaces, index) else { continue }
            defer { g_variant_unref(entry) }
            guard let name = stringChild(entry, 0), let properties = g_variant_get_child_value(entry, 1) else {
                continue
            }
            body(name, properties)
            g_variant_unref(properties)
        }
    }

    /// The arguments of `SetDiscoveryFilter`: `({"Transport": <"le">, "DuplicateData": <true>, "RSSI": <floor>},)`.
    /// A floating reference, consumed by the call.
    static func discoveryFilter(rssiFloor: Int16) -> OpaquePointer? {
        func entry(_ key: String, _ value: OpaquePointer?) -> OpaquePointer? {
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
        }
        var entries: [OpaquePointer?] = [
            entry("Transport", g_variant_new_string("le")),
            entry("DuplicateData", g_variant_new_boolean(1)),
            entry("RSSI", g_variant_new_int16(rssiFloor)),
        ]
        let dictionary = entries.withUnsafeMutableBufferPointer {
            g_variant_new_array(nil, $0.baseAddress, gsize($0.count))
        }
        var tuple: [OpaquePointer?] = [dictionary]
        return tuple.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// The arguments of `Properties.Set("org.bluez.Adapter1", "Powered", <true>)`.
    static func powerOn() -> OpaquePointer? {
        var items: [OpaquePointer?] = [
            g_variant_new_string("org.bluez.Adapter1"), g_variant_new_string("Powered"),
            g_variant_new_variant(g_variant_new_boolean(1)),
        ]
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// A tuple of one string (`NameHasOwner("org.bluez")`).
    static func stringTuple(_ text: String) -> OpaquePointer? {
        var items: [OpaquePointer?] = [g_variant_new_string(text)]
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }
}
