import FaroGLib
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
        guard let address = sessionBusAddress(environment: environment),
            case .success(let connection) = DBusClient.connectSync(address: address)
        else { return false }
        defer { DBusClient.close(connection, waiting: true) }
        if case .success(true) = MessageBus.nameHasOwner(busName, on: connection, timeoutMilliseconds: 2000) {
            return true
        }
        guard case .success(let names) = MessageBus.activatableNames(on: connection, timeoutMilliseconds: 2000) else {
            return false
        }
        return names.contains(busName)
    }
}
