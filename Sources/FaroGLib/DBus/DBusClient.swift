internal import CGio
import Glibc

/// A D-Bus error as the bus or a peer returned it: the error name (`org.bluez.Error.NotReady`) and its message.
public struct DBusFailure: Error, Equatable, Sendable {
    public var name: String
    public var message: String

    /// Takes over a GError from a GDBus call (and frees it).
    init(consuming error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            name = "org.freedesktop.DBus.Error.Failed"
            message = "unknown error"
            return
        }
        if let remote = g_dbus_error_get_remote_error(error) {
            name = String(cString: remote)
            g_free(remote)
            g_dbus_error_strip_remote_error(error)
        } else if let encoded = g_dbus_error_encode_gerror(error) {
            name = String(cString: encoded)
            g_free(encoded)
        } else {
            name = "org.freedesktop.DBus.Error.Failed"
        }
        message = error.pointee.message.map { String(cString: $0) } ?? ""
        g_error_free(error)
    }

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}

/// A GCancellable for D-Bus calls and connections that may be abandoned (a source stopped before its bus
/// answered). The corresponding C type is `GCancellable`.
public final class DBusCancellable {
    let pointer: UnsafeMutablePointer<GCancellable>?

    public init() { pointer = g_cancellable_new() }

    deinit { if let pointer { g_object_unref(UnsafeMutableRawPointer(pointer)) } }

    /// Cancels what was started with it; their replies report `G_IO_ERROR_CANCELLED`.
    public func cancel() { g_cancellable_cancel(pointer) }
}

/// Thin, typed GDBus calls: asynchronous method calls, signal subscriptions and name watching, each reply and
/// signal delivered on the thread-default main context of the caller. Nothing here blocks except `callSync`.
public enum DBusClient {
    /// The address of the system bus (`$DBUS_SYSTEM_BUS_ADDRESS`, or the standard socket).
    public static func systemBusAddress() -> Result<String, DBusFailure> {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SYSTEM, nil, &error) else {
            return .failure(DBusFailure(consuming: error))
        }
        defer { g_free(address) }
        return .success(String(cString: address))
    }

    /// The session bus address, or nil when there is none to use: `DBUS_SESSION_BUS_ADDRESS`, else the user bus
    /// socket `$XDG_RUNTIME_DIR/bus` (what GLib itself tries before autolaunching one, which would write into
    /// `$HOME`: Faro never autolaunches a bus).
    public static func sessionBusAddress(environment: [String: String]) -> String? {
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

    static let clientFlags = GDBusConnectionFlags(
        rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
            | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)

    /// Opens a private connection to the bus at `address` without blocking. The connection never ends the process
    /// when the bus goes away (GDBus's `exit-on-close`, off for private connections, is kept off). Close it with
    /// `close(_:)`.
    public static func connect(
        address: String, cancellable: DBusCancellable?,
        _ reply: @escaping (Result<OpaquePointer, DBusFailure>) -> Void
    ) {
        typealias Reply = GLibClosure<Result<OpaquePointer, DBusFailure>, Void>
        g_dbus_connection_new_for_address(
            address, clientFlags, nil, cancellable?.pointer,
            { _, result, data in
                guard let data else { return }
                var error: UnsafeMutablePointer<GError>?
                if let connection = g_dbus_connection_new_for_address_finish(result, &error) {
                    g_dbus_connection_set_exit_on_close(connection, 0)
                    Reply.callOnce(data, .success(connection))
                } else {
                    Reply.callOnce(data, .failure(DBusFailure(consuming: error)))
                }
            }, Reply.retained(reply))
    }

    /// Opens a private connection and waits for it (for one-off checks before any UI exists). Close it with
    /// `close(_:waiting: true)`.
    public static func connectSync(address: String) -> Result<OpaquePointer, DBusFailure> {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_dbus_connection_new_for_address_sync(address, clientFlags, nil, nil, &error) else {
            return .failure(DBusFailure(consuming: error))
        }
        g_dbus_connection_set_exit_on_close(connection, 0)
        return .success(connection)
    }

    /// Closes a connection made by `connect` or `connectSync` and drops the caller's reference. `waiting` blocks
    /// until the close is done (one-off checks); otherwise the close finishes in the background. The
    /// corresponding C functions are `g_dbus_connection_close` and `g_dbus_connection_close_sync`.
    public static func close(_ connection: OpaquePointer, waiting: Bool = false) {
        if waiting {
            g_dbus_connection_close_sync(connection, nil, nil)
        } else {
            g_dbus_connection_close(connection, nil, nil, nil)
        }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Calls a method without blocking; `reply` gets the reply tuple (unreferenced after it returns) or the error.
    public static func call(
        _ connection: OpaquePointer, destination: String, path: String, interface: String,
        method: String, parameters: OpaquePointer? = nil, timeoutMilliseconds: Int32 = 25_000,
        _ reply: @escaping (Result<OpaquePointer?, DBusFailure>) -> Void
    ) {
        typealias Reply = GLibClosure<Result<OpaquePointer?, DBusFailure>, Void>
        g_dbus_connection_call(
            connection, destination, path, interface, method, parameters, nil,
            G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil,
            { source, result, data in
                guard let data else { return }
                var error: UnsafeMutablePointer<GError>?
                let connection = OpaquePointer(source)
                if let value = g_dbus_connection_call_finish(connection, result, &error) {
                    Reply.callOnce(data, .success(value))
                    g_variant_unref(value)
                } else {
                    Reply.callOnce(data, .failure(DBusFailure(consuming: error)))
                }
            }, Reply.retained(reply))
    }

    /// Calls a method whose reply carries one file descriptor (logind's `Inhibit` returns `(h)`) without blocking;
    /// `reply` gets the descriptor, which the caller now owns and closes, or the error. A reply of another type, or
    /// without the descriptor, is a failure.
    public static func callTakingDescriptor(
        _ connection: OpaquePointer, destination: String, path: String, interface: String,
        method: String, parameters: OpaquePointer? = nil, timeoutMilliseconds: Int32 = 25_000,
        _ reply: @escaping (Result<Int32, DBusFailure>) -> Void
    ) {
        typealias Reply = GLibClosure<Result<Int32, DBusFailure>, Void>
        g_dbus_connection_call_with_unix_fd_list(
            connection, destination, path, interface, method, parameters, nil,
            G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, nil,
            { source, result, data in
                guard let data else { return }
                var error: UnsafeMutablePointer<GError>?
                var list: UnsafeMutablePointer<GUnixFDList>?
                guard
                    let value = g_dbus_connection_call_with_unix_fd_list_finish(
                        OpaquePointer(source), &list, result, &error)
                else {
                    Reply.callOnce(data, .failure(DBusFailure(consuming: error)))
                    return
                }
                defer {
                    g_variant_unref(value)
                    if let list { g_object_unref(UnsafeMutableRawPointer(list)) }
                }
                var fd: Int32 = -1
                if GVariantReading.has(value, type: "(h)"), let list, let handle = g_variant_get_child_value(value, 0) {
                    let index = g_variant_get_handle(handle)
                    g_variant_unref(handle)
                    fd = g_unix_fd_list_get(list, index, nil)  // a duplicate the caller owns
                }
                if fd >= 0 {
                    Reply.callOnce(data, .success(fd))
                } else {
                    Reply.callOnce(
                        data,
                        .failure(
                            DBusFailure(
                                name: "org.freedesktop.DBus.Error.InvalidArgs",
                                message: "the reply \(GVariantReading.typeString(value)) carries no descriptor")))
                }
            }, Reply.retained(reply))
    }

    /// Calls a method and waits for the reply (for one-off checks and tests, never in the UI); release the reply
    /// with `GVariantReading.release`. With `replyType` (`(a{oa{sa{sv}}})`), GDBus itself refuses a reply of any
    /// other type (a failure whose message names both types); `autoStart` false does not let the bus start the
    /// destination to answer.
    public static func callSync(
        _ connection: OpaquePointer, destination: String, path: String, interface: String,
        method: String, parameters: OpaquePointer? = nil, replyType: String? = nil, autoStart: Bool = true,
        timeoutMilliseconds: Int32 = 5_000
    ) -> Result<OpaquePointer, DBusFailure> {
        var type: OpaquePointer?
        if let replyType {
            // A type string that is not a D-Bus type would make GLib abort inside g_variant_type_new.
            guard g_variant_type_string_is_valid(replyType) != 0, let valid = g_variant_type_new(replyType) else {
                if let parameters { g_variant_unref(g_variant_ref_sink(parameters)) }  // consumed, as a call would
                return .failure(
                    DBusFailure(
                        name: "org.freedesktop.DBus.Error.InvalidArgs", message: "not a D-Bus type: \(replyType)"))
            }
            type = valid
        }
        defer { if let type { g_variant_type_free(type) } }
        var error: UnsafeMutablePointer<GError>?
        let flags = autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START
        guard
            let value = g_dbus_connection_call_sync(
                connection, destination, path, interface, method, parameters,
                type, flags, timeoutMilliseconds, nil, &error)
        else { return .failure(DBusFailure(consuming: error)) }
        return .success(value)
    }

    /// Subscribes to a signal; `handler` runs on the caller's thread-default main context. The box is released by
    /// GLib when the subscription ends (`unsubscribe`, or the connection goes away).
    public static func subscribe(
        _ connection: OpaquePointer, sender: String?, interface: String?, member: String?,
        path: String?, _ handler: @escaping (String, UnsafePointer<CChar>, OpaquePointer) -> Void
    )
        -> UInt32
    {
        typealias Handler = GLibClosure<(String, UnsafePointer<CChar>, OpaquePointer), Void>
        return g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, nil,
            G_DBUS_SIGNAL_FLAGS_NONE,
            { _, sender, path, _, _, parameters, data in
                guard let data, let path, let parameters else { return }
                Handler.call(data, (sender.map { String(cString: $0) } ?? "", path, parameters))
            }, Handler.retained(handler), releaseClosure)
    }

    public static func unsubscribe(_ connection: OpaquePointer, _ id: UInt32) {
        g_dbus_connection_signal_unsubscribe(connection, id)
    }

    /// Watches a well-known name: `appeared(owner)` when someone owns it, `vanished()` when nobody does. GLib
    /// reports the current situation once right away.
    public static func watchName(
        _ connection: OpaquePointer, _ name: String, appeared: @escaping (String) -> Void,
        vanished: @escaping () -> Void
    ) -> UInt32 {
        // One box for both callbacks: the owner's name when it appeared, nil when it vanished.
        typealias Watcher = GLibClosure<String?, Void>
        let box = Watcher.retained { owner in
            if let owner { appeared(owner) } else { vanished() }
        }
        return g_bus_watch_name_on_connection(
            connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, owner, data in
                guard let data else { return }
                Watcher.call(data, owner.map { String(cString: $0) } ?? "")
            },
            { _, _, data in
                guard let data else { return }
                Watcher.call(data, nil)
            }, box, releaseClosure)
    }

    public static func unwatchName(_ id: UInt32) { g_bus_unwatch_name(id) }
}
