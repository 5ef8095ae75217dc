import CGio
import FaroCore
import FoundationEssentials

/// Why no device id could be found at all (no modem, and no usable machine id).
public struct DeviceIDError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}

/// Finds the device id for content URLs (PRODUCT.md §2): the `EquipmentIdentifier` of the first modem that
/// ModemManager exposes on the system bus; without one, the app-specific id derived from the machine id
/// (HMAC-SHA256 as `sd_id128_get_machine_app_specific`, through GLib's `g_compute_hmac_for_data`).
public struct DeviceIDResolver: Sendable {
    /// The system bus to ask; nil means `$DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket.
    public var systemBusAddress: String?
    /// Where the machine id lives (`/etc/machine-id`).
    public var machineIDPath: String
    /// How long to wait for ModemManager before falling back.
    public var timeoutMilliseconds: Int32

    public init(
        systemBusAddress: String? = nil, machineIDPath: String = "/etc/machine-id", timeoutMilliseconds: Int32 = 1500
    ) {
        self.systemBusAddress = systemBusAddress
        self.machineIDPath = machineIDPath
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The resolver the app uses: the real system bus and `/etc/machine-id`, unless `FARO_MACHINE_ID_FILE` names
    /// another file (tests and second profiles).
    public static func fromEnvironment() -> DeviceIDResolver {
        let env = ProcessInfo.processInfo.environment
        return DeviceIDResolver(
            machineIDPath: env["FARO_MACHINE_ID_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/machine-id")
    }

    /// The modem's IMEI when there is a modem, else the machine-derived id.
    public func resolve() throws(DeviceIDError) -> DeviceID {
        if let imei = modemEquipmentIdentifier() { return DeviceID(value: imei, source: .modem) }
        return try machineDerived()
    }

    /// The app-specific id of this machine.
    public func machineDerived() throws(DeviceIDError) -> DeviceID {
        guard let data = FileManager.default.contents(atPath: machineIDPath) else {
            throw DeviceIDError(
                description: "no modem and no readable machine id at \(machineIDPath); run systemd-machine-id-setup")
        }
        let machine: [UInt8]
        do {
            machine = try AppSpecificID.parseMachineID(String(decoding: data, as: UTF8.self))
        } catch {
            throw DeviceIDError(description: "\(machineIDPath): \(error)")
        }
        guard let digest = Self.hmacSHA256(key: machine, message: AppSpecificID.faroAppID) else {
            throw DeviceIDError(description: "GLib could not compute HMAC-SHA256")
        }
        return DeviceID(value: AppSpecificID.id(fromDigest: digest), source: .machine)
    }

    /// HMAC-SHA256 of `message` keyed by `key`, computed by GLib.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        let hex: UnsafeMutablePointer<gchar>? = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                g_compute_hmac_for_data(G_CHECKSUM_SHA256, k.baseAddress, gsize(k.count), m.baseAddress, gsize(m.count))
            }
        }
        guard let hex else { return nil }
        defer { g_free(hex) }
        let text = Array(String(cString: hex).utf8)
        guard text.count == 64 else { return nil }
        return stride(from: 0, to: 64, by: 2).map { i in
            let hi = text[i] <= 57 ? text[i] - 48 : text[i] - 87
            let lo = text[i + 1] <= 57 ? text[i + 1] - 48 : text[i + 1] - 87
            return hi << 4 | lo
        }
    }

    /// The `EquipmentIdentifier` of the first modem (lowest object path) ModemManager lists through its
    /// ObjectManager, or nil when there is no bus, no ModemManager, no modem, or no identifier. Every part of the
    /// reply is type-checked before it is read: a reply (or a property) of another type than ModemManager's is
    /// ignored, never read as if it were right.
    public func modemEquipmentIdentifier() -> String? {
        let address =
            systemBusAddress
            ?? ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "unix:path=/var/run/dbus/system_bus_socket"
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer {
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        // GDBus itself refuses a reply of any other type (G_IO_ERROR_INVALID_ARGUMENT).
        guard let replyType = g_variant_type_new(Self.managedObjectsReply) else { return nil }
        defer { g_variant_type_free(replyType) }
        guard
            let reply = g_dbus_connection_call_sync(
                connection, "org.freedesktop.ModemManager1", "/org/freedesktop/ModemManager1",
                "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", nil, replyType,
                G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds, nil, &error)
        else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_variant_unref(reply) }
        return Self.firstEquipmentIdentifier(inReply: reply)
    }

    /// The D-Bus type of `GetManagedObjects`' reply: object paths to interfaces to properties.
    static let managedObjectsReply = "(a{oa{sa{sv}}})"

    /// The identifier of the first modem in a `GetManagedObjects` reply; nil for a reply of any other type, and a
    /// modem whose `EquipmentIdentifier` is not a string is skipped.
    static func firstEquipmentIdentifier(inReply reply: OpaquePointer) -> String? {
        guard isOfType(reply, managedObjectsReply), let objects = g_variant_get_child_value(reply, 0) else {
            return nil
        }
        defer { g_variant_unref(objects) }
        var found: [(path: String, id: String)] = []
        for i in 0..<g_variant_n_children(objects) {
            guard let entry = g_variant_get_child_value(objects, i) else { continue }
            defer { g_variant_unref(entry) }
            guard isOfType(entry, "{oa{sa{sv}}}"), let pathValue = g_variant_get_child_value(entry, 0),
                let interfaces = g_variant_get_child_value(entry, 1)
            else { continue }
            defer {
                g_variant_unref(pathValue)
                g_variant_unref(interfaces)
            }
            guard isOfType(pathValue, "o"), isOfType(interfaces, "a{sa{sv}}"),
                let modem = g_variant_lookup_value(interfaces, "org.freedesktop.ModemManager1.Modem", nil)
            else { continue }
            defer { g_variant_unref(modem) }
            guard isOfType(modem, "a{sv}"), let ident = g_variant_lookup_value(modem, "EquipmentIdentifier", nil)
            else { continue }
            defer { g_variant_unref(ident) }
            guard isOfType(ident, "s"), let text = g_variant_get_string(ident, nil),
                let path = g_variant_get_string(pathValue, nil)
            else { continue }
            let value = String(cString: text).trimmingWhitespaceAndNewlines()
            if !value.isEmpty { found.append((String(cString: path), value)) }
        }
        return found.min { Self.modemOrder($0.path, $1.path) }?.id
    }

    /// Whether `value`'s type string is exactly `type`.
    static func isOfType(_ value: OpaquePointer, _ type: String) -> Bool {
        guard let actual = g_variant_get_type_string(value) else { return false }
        return String(cString: actual) == type
    }

    /// `/Modem/2` before `/Modem/10`: by the trailing number, then by text.
    static func modemOrder(_ a: String, _ b: String) -> Bool {
        let na = a.split(separator: "/").last.flatMap { Int($0) }
        let nb = b.split(separator: "/").last.flatMap { Int($0) }
        if let na, let nb, na != nb { return na < nb }
        return a < b
    }
}
