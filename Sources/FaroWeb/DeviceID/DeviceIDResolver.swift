import CGio
import FaroCore
internal import FaroGLib
import FoundationEssentials

/// Why no device id could be found at all (no modem, and no usable machine id).
public struct DeviceIDError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}

/// Finds the device id for content URLs (docs/content-view.md): the `EquipmentIdentifier` of the first modem that
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
    /// ignored, never read as if it were right. ModemManager is not started to answer.
    public func modemEquipmentIdentifier() -> String? {
        let address =
            systemBusAddress
            ?? ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "unix:path=/var/run/dbus/system_bus_socket"
        guard case .success(let connection) = DBusClient.connectSync(address: address) else { return nil }
        defer { DBusClient.close(connection, waiting: true) }
        // GDBus itself refuses a reply of any other type than GetManagedObjects' own.
        guard
            case .success(let reply) = ObjectManager.managedObjectsSync(
                connection, destination: "org.freedesktop.ModemManager1", path: "/org/freedesktop/ModemManager1",
                autoStart: false, timeoutMilliseconds: timeoutMilliseconds)
        else { return nil }
        defer { GVariantReading.release(reply) }
        return Self.firstEquipmentIdentifier(inReply: reply)
    }

    /// The interface of a ModemManager modem object.
    static let modemInterface = "org.freedesktop.ModemManager1.Modem"

    /// The identifier of the first modem in a `GetManagedObjects` reply; nil for a reply of any other type, and a
    /// modem whose `EquipmentIdentifier` is not a string is skipped.
    static func firstEquipmentIdentifier(inReply reply: OpaquePointer) -> String? {
        var found: [(path: String, id: String)] = []
        GVariantReading.forEachManagedObject(reply) { path, interfaces in
            GVariantReading.forEachInterface(interfaces) { name, properties in
                guard name == modemInterface,
                    let text = GVariantReading.lookup(properties, "EquipmentIdentifier", { GVariantReading.string($0) })
                else { return }
                let value = text.trimmingWhitespaceAndNewlines()
                if !value.isEmpty { found.append((path, value)) }
            }
        }
        return found.min { Self.modemOrder($0.path, $1.path) }?.id
    }

    /// `/Modem/2` before `/Modem/10`: by the trailing number, then by text.
    static func modemOrder(_ a: String, _ b: String) -> Bool {
        let na = a.split(separator: "/").last.flatMap { Int($0) }
        let nb = b.split(separator: "/").last.flatMap { Int($0) }
        if let na, let nb, na != nb { return na < nb }
        return a < b
    }
}
