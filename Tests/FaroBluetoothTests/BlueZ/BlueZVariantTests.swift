import CGio
import Testing

@testable import FaroBluetooth

/// Reading BlueZ's GVariant dictionaries and building Faro's own arguments, without a bus.
struct BlueZVariantTests {
    /// Parses GVariant text (`{'RSSI': <int16 -60>}`) into a value owned by the caller.
    func parse(_ text: String) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let value = g_variant_parse(nil, text, nil, nil, &error) else {
            throw HarnessError(description: "bad GVariant text \(text): \(BusControl.message(error))")
        }
        return g_variant_ref_sink(value)
    }

    func printed(_ value: OpaquePointer?) -> String {
        guard let value, let text = g_variant_print(value, 1) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    @Test func readsDeviceProperties() throws {
        let dictionary = try parse(
            """
            {'Address': <'C0:FF:EE:00:00:01'>, 'Adapter': <objectpath '/org/bluez/hci0'>, 'RSSI': <int16 -61>,
             'ManufacturerData': <{uint16 76: <[byte 2, 21, 1]>, uint16 89: <@ay []>}>, 'Name': <'x'>}
            """)
        defer { g_variant_unref(dictionary) }
        let p = BlueZVariant.deviceProperties(dictionary)
        #expect(p.address == "C0:FF:EE:00:00:01" && p.adapter == "/org/bluez/hci0" && p.rssi == -61)
        #expect(p.manufacturerData == [0x004C: [2, 21, 1], 0x0059: []])
        #expect(p.malformed.isEmpty)
    }

    @Test func namesWhatHasTheWrongType() throws {
        // The stock dbusmock template's aa{qv}, an RSSI as text, an address as a number.
        let dictionary = try parse(
            """
            {'ManufacturerData': <@aa{qv} []>, 'RSSI': <'loud'>, 'Address': <42>}
            """)
        defer { g_variant_unref(dictionary) }
        let p = BlueZVariant.deviceProperties(dictionary)
        #expect(Set(p.malformed) == ["ManufacturerData", "RSSI", "Address"])
        #expect(p.rssi == nil && p.manufacturerData == nil && p.address == nil)
        let notADictionary = try parse("('a', 'b')")
        defer { g_variant_unref(notADictionary) }
        #expect(BlueZVariant.deviceProperties(notADictionary) == DeviceProperties())
    }

    @Test func readsAdapterProperties() throws {
        let dictionary = try parse("{'Powered': <false>, 'Discovering': <true>, 'Alias': <'x'>}")
        defer { g_variant_unref(dictionary) }
        #expect(BlueZVariant.adapterProperties(dictionary) == AdapterProperties(powered: false, discovering: true))
    }

    @Test func buildsTheDiscoveryFilterAndPowerCall() {
        let filter = BlueZVariant.discoveryFilter(rssiFloor: -127).flatMap { g_variant_ref_sink($0) }
        defer { if let filter { g_variant_unref(filter) } }
        #expect(printed(filter) == "({'Transport': <'le'>, 'DuplicateData': <true>, 'RSSI': <int16 -127>},)")
        let power = BlueZVariant.powerOn().flatMap { g_variant_ref_sink($0) }
        defer { if let power { g_variant_unref(power) } }
        #expect(printed(power) == "('org.bluez.Adapter1', 'Powered', <true>)")
    }
}
