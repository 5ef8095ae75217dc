internal import CGio

/// The bus daemon's own methods (`org.freedesktop.DBus` at `/org/freedesktop/DBus`), asked and waited for: the
/// one-off checks made before any UI exists (is bluetoothd there, can a Secret Service be reached).
public enum MessageBus {
    static let name = "org.freedesktop.DBus"
    static let path = "/org/freedesktop/DBus"

    /// Whether someone owns `name` now. A reply that is not a boolean counts as no. The corresponding D-Bus method
    /// is `NameHasOwner`.
    public static func nameHasOwner(
        _ name: String, on connection: OpaquePointer, timeoutMilliseconds: Int32 = 5_000
    ) -> Result<Bool, DBusFailure> {
        DBusClient.callSync(
            connection, destination: Self.name, path: path, interface: Self.name, method: "NameHasOwner",
            parameters: GVariantReading.stringTuple(name), timeoutMilliseconds: timeoutMilliseconds
        ).map { reply in
            defer { GVariantReading.release(reply) }
            return GVariantReading.withChild(reply, 0) { GVariantReading.boolean($0) } ?? false
        }
    }

    /// The names the bus can start on demand (D-Bus activation); strings of another type are left out. The
    /// corresponding D-Bus method is `ListActivatableNames`.
    public static func activatableNames(
        on connection: OpaquePointer, timeoutMilliseconds: Int32 = 5_000
    ) -> Result<[String], DBusFailure> {
        DBusClient.callSync(
            connection, destination: name, path: path, interface: name, method: "ListActivatableNames",
            timeoutMilliseconds: timeoutMilliseconds
        ).map { reply in
            defer { GVariantReading.release(reply) }
            return GVariantReading.withChild(reply, 0) { GVariantReading.strings($0) } ?? []
        }
    }
}
