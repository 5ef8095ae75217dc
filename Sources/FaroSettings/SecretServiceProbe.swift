internal import CSecret
import FoundationEssentials
import Glibc

/// Whether a Secret Service (GNOME Keyring, KWallet, KeePassXC…) can be reached on the session bus, asked without
/// starting anything: with no session bus address there is no bus (GDBus would otherwise autolaunch one and write
/// into `$HOME`); on a bus, the service counts when `org.freedesktop.secrets` has an owner or can be activated.
enum SecretServiceProbe {
    static let busName = "org.freedesktop.secrets"

    /// The session bus address, or nil when there is none to use: `DBUS_SESSION_BUS_ADDRESS`, else the user bus
    /// socket `$XDG_RUNTIME_DIR/bus` (what GLib itself tries before autolaunching).
    static func sessionBusAddress(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            return address == "disabled:" ? nil : address
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            var info = stat()
            if stat(runtime + "/bus", &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK {
                return "unix:path=" + runtime + "/bus"
            }
        }
        return nil
    }

    /// True when a Secret Service is running or can be started on the session bus.
    static func isAvailable(environment: [String: String]) -> Bool {
        guard let address = sessionBusAddress(environment: environment) else { return false }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            g_error_free(error)
            return false
        }
        defer {
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        if call(connection, "NameHasOwner", g_variant_new_string(busName)).flatMap(boolean) == true { return true }
        return call(connection, "ListActivatableNames", nil).map { names(in: $0).contains(busName) } ?? false
    }

    /// Calls a method of the bus itself; the reply, or nil on any error.
    private static func call(_ connection: OpaquePointer, _ method: String, _ argument: OpaquePointer?)
        -> OpaquePointer?
    {
        var children: [OpaquePointer?] = argument.map { [$0] } ?? []
        let parameters = children.withUnsafeMutableBufferPointer {
            g_variant_new_tuple($0.baseAddress, gsize($0.count))
        }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, parameters,
            nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error)
        if reply == nil { g_error_free(error) }
        return reply
    }

    private static func boolean(_ reply: OpaquePointer) -> Bool? {
        defer { g_variant_unref(reply) }
        guard let value = g_variant_get_child_value(reply, 0) else { return nil }
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    private static func names(in reply: OpaquePointer) -> [String] {
        defer { g_variant_unref(reply) }
        guard let list = g_variant_get_child_value(reply, 0) else { return [] }
        defer { g_variant_unref(list) }
        return (0..<g_variant_n_children(list)).compactMap { i in
            guard let item = g_variant_get_child_value(list, i) else { return nil }
            defer { g_variant_unref(item) }
            return String(cString: g_variant_get_string(item, nil))
        }
    }
}
