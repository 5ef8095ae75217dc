import FaroGLib
import FoundationEssentials

/// Whether a Secret Service (GNOME Keyring, KWallet, KeePassXC…) can be reached on the session bus, asked without
/// starting anything: with no session bus address there is no bus (GDBus would otherwise autolaunch one and write
/// into `$HOME`); on a bus, the service counts when `org.freedesktop.secrets` has an owner or can be activated.
enum SecretServiceProbe {
    static let busName = "org.freedesktop.secrets"

    /// True when a Secret Service is running or can be started on the session bus.
    static func isAvailable(environment: [String: String]) -> Bool {
        guard let address = DBusClient.sessionBusAddress(environment: environment),
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
