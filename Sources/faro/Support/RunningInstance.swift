import FaroGLib
import FoundationEssentials

/// A Faro window already running in this session (the same application id on the session bus), told to do
/// something without starting one: GtkApplication exports its `app.*` actions as `org.gtk.Actions` at the object
/// path of its id.
enum RunningInstance {
    /// Activates `app.<action>` on the running instance of `appID`; false when none runs (or the bus cannot be
    /// reached), which is never an error for the caller.
    static func activate(
        _ action: String, appID: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard let address = DBusClient.sessionBusAddress(environment: environment),
            case .success(let connection) = DBusClient.connectSync(address: address)
        else { return false }
        defer { DBusClient.close(connection, waiting: true) }
        let path = "/" + appID.replacing(".", with: "/").replacing("-", with: "_")
        let result = DBusClient.callSync(
            connection, destination: appID, path: path, interface: "org.gtk.Actions", method: "Activate",
            parameters: GVariantReading.actionActivation(action), autoStart: false, timeoutMilliseconds: 3000)
        guard case .success(let reply) = result else { return false }
        GVariantReading.release(reply)
        return true
    }
}
