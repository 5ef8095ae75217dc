internal import CGio
import FaroGLib
import Glibc

/// The `org.bluez.Adapter1` properties Faro reads.
struct AdapterProperties: Equatable {
    var powered: Bool?
    var discovering: Bool?
    /// The adapter's Bluetooth address (`Adapter1.Address`), which calibration offsets are kept under.
    var address: String?
}

/// Reading BlueZ's GVariant values into plain Swift values, checking every type on the way (a misbehaving peer
/// can send anything; the generic readers are FaroGLib's `GVariantReading`), and building the few values Faro
/// sends.
enum BlueZVariant {

    /// Device1 properties from an `a{sv}` dictionary (InterfacesAdded, GetManagedObjects, PropertiesChanged).
    static func deviceProperties(_ dictionary: OpaquePointer, invalidated: [String] = []) -> DeviceProperties {
        var p = DeviceProperties(invalidated: invalidated)
        GVariantReading.forEachEntry(dictionary) { key, value in
            if strcmp(key, "RSSI") == 0 {
                if GVariantReading.has(value, type: "n") {
                    p.rssi = g_variant_get_int16(value)
                } else {
                    p.malformed.append("RSSI")
                }
            } else if strcmp(key, "ManufacturerData") == 0 {
                if let data = manufacturerData(value) {
                    p.manufacturerData = data
                } else {
                    p.malformed.append("ManufacturerData")
                }
            } else if strcmp(key, "Address") == 0 {
                if GVariantReading.has(value, type: "s"), let text = g_variant_get_string(value, nil) {
                    p.address = String(cString: text)
                } else {
                    p.malformed.append("Address")
                }
            } else if strcmp(key, "Adapter") == 0 {
                if GVariantReading.has(value, type: "o"), let text = g_variant_get_string(value, nil) {
                    p.adapter = String(cString: text)
                }
            }
        }
        return p
    }

    /// `a{qv}` with `ay` values, or nil when the shape is anything else.
    static func manufacturerData(_ value: OpaquePointer) -> [UInt16: [UInt8]]? {
        guard GVariantReading.has(value, type: "a{qv}") else { return nil }
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
            guard GVariantReading.has(bytes, type: "ay") else { return nil }
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
        GVariantReading.forEachEntry(dictionary) { key, value in
            if strcmp(key, "Address") == 0, GVariantReading.has(value, type: "s"),
                let text = g_variant_get_string(value, nil)
            {
                p.address = String(cString: text)
            }
            guard GVariantReading.has(value, type: "b") else { return }
            if strcmp(key, "Powered") == 0 { p.powered = g_variant_get_boolean(value) != 0 }
            if strcmp(key, "Discovering") == 0 { p.discovering = g_variant_get_boolean(value) != 0 }
        }
        return p
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

    /// The arguments of `Properties.Set("org.bluez.Adapter1", "Powered", <on>)`.
    static func powerOn(_ on: Bool = true) -> OpaquePointer? {
        var items: [OpaquePointer?] = [
            g_variant_new_string("org.bluez.Adapter1"), g_variant_new_string("Powered"),
            g_variant_new_variant(g_variant_new_boolean(on ? 1 : 0)),
        ]
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }
}
