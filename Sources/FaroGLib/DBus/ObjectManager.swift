/// `org.freedesktop.DBus.ObjectManager`: the objects a service exports, with their interfaces and properties.
public enum ObjectManager {
    /// The D-Bus type of a `GetManagedObjects` reply: object paths to interfaces to properties.
    public static let managedObjectsReplyType = "(a{oa{sa{sv}}})"

    /// Asks the ObjectManager at `path` of `destination` for its objects and waits (one-off checks, never in the
    /// UI). GDBus refuses a reply of any other type, so a reply that arrives is `(a{oa{sa{sv}}})`; read it with
    /// `GVariantReading.forEachManagedObject` and release it with `GVariantReading.release`. With `autoStart`
    /// false, a service that is not running is not started to answer.
    public static func managedObjectsSync(
        _ connection: OpaquePointer, destination: String, path: String, autoStart: Bool = true,
        timeoutMilliseconds: Int32 = 5_000
    ) -> Result<OpaquePointer, DBusFailure> {
        DBusClient.callSync(
            connection, destination: destination, path: path, interface: "org.freedesktop.DBus.ObjectManager",
            method: "GetManagedObjects", replyType: managedObjectsReplyType, autoStart: autoStart,
            timeoutMilliseconds: timeoutMilliseconds)
    }
}
