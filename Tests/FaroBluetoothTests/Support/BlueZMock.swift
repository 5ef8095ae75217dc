import CGio
import FaroTestSupport
import Foundation

/// A failure of the test harness itself (a peer that did not start, a mock call that failed).
struct HarnessError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking D-Bus client for driving mocks from tests: calls take their arguments in GVariant text form
/// (`"('hci0', 'Faro')"`) and return the reply printed the same way.
final class BusControl {
    private let connection: OpaquePointer

    init(address: String) throws {
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw HarnessError(description: "cannot connect to \(address): \(BusControl.message(error))")
        }
        self.connection = connection
    }

    deinit {
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    /// Calls `interface.method` on `path` of `destination`; throws the D-Bus error's message.
    @discardableResult
    func call(
        _ destination: String = "org.bluez", path: String, _ interface: String, _ method: String,
        _ arguments: String = "()"
    ) throws -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let parameters = g_variant_parse(nil, arguments, nil, nil, &error) else {
            throw HarnessError(description: "bad GVariant text \(arguments): \(BusControl.message(error))")
        }
        guard
            let reply = g_dbus_connection_call_sync(
                connection, destination, path, interface, method, parameters,
                nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        else {
            throw HarnessError(description: "\(method) failed: \(BusControl.message(error))")
        }
        defer { g_variant_unref(reply) }
        guard let text = g_variant_print(reply, 1) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The number of elements of the array a method returns as its only value (e.g. GetMethodCalls).
    func count(
        _ destination: String = "org.bluez", path: String, _ interface: String, _ method: String,
        _ arguments: String
    ) throws -> Int {
        var error: UnsafeMutablePointer<GError>?
        guard let parameters = g_variant_parse(nil, arguments, nil, nil, &error) else {
            throw HarnessError(description: "bad GVariant text \(arguments): \(BusControl.message(error))")
        }
        guard
            let reply = g_dbus_connection_call_sync(
                connection, destination, path, interface, method, parameters,
                nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        else {
            throw HarnessError(description: "\(method) failed: \(BusControl.message(error))")
        }
        defer { g_variant_unref(reply) }
        guard let array = g_variant_get_child_value(reply, 0) else { return 0 }
        defer { g_variant_unref(array) }
        return Int(g_variant_n_children(array))
    }

    /// Whether `name` has an owner on the bus.
    func hasOwner(_ name: String) throws -> Bool {
        try call(
            "org.freedesktop.DBus", path: "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            "('\(name)',)") == "(true,)"
    }
}

/// python-dbusmock playing bluetoothd with Faro's own template (`Templates/bluez_faro.py`) on a private bus.
/// `stop()` and `start()` simulate bluetoothd stopping and starting again; everything is killed on deinit.
final class BlueZMock {
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Templates/bluez_faro.py").path

    let address: String
    let control: BusControl
    private(set) var process: ChildProcess?
    /// The bus daemon, kept running as long as the mock.
    private let bus: AnyObject

    /// A private bus of its own; the mock is started unless `running` is false.
    convenience init(running: Bool = true) throws {
        let bus = try PrivateBus()
        try self.init(running: running, address: bus.address, keeping: bus)
    }

    /// The mock on a bus someone else started (`bus` is kept alive with the mock).
    init(running: Bool = true, address: String, keeping bus: AnyObject) throws {
        self.address = address
        self.bus = bus
        control = try BusControl(address: address)
        if running { try start() }
    }

    /// Starts the mock and waits (up to 10 s) until it owns `org.bluez`.
    func start() throws {
        let mock = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", BlueZMock.template],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        process = mock
        let deadline = Date().addingTimeInterval(10)
        while !(try control.hasOwner("org.bluez")) {
            if Date() > deadline || !mock.process.isRunning {
                throw HarnessError(description: "dbusmock did not start: \(mock.stderr)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Stops the mock the way bluetoothd crashes (SIGKILL: the test runner's threads block SIGTERM, and children
    /// inherit that mask) and waits until the name is gone.
    func stop() throws {
        guard let mock = process else { return }
        mock.signal(SIGKILL)
        mock.wait(timeout: 5)
        process = nil
        let deadline = Date().addingTimeInterval(5)
        while try control.hasOwner("org.bluez") {
            if Date() > deadline { throw HarnessError(description: "org.bluez is still owned after the mock stopped") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit {
        if let process {
            process.signal(SIGKILL)
            process.wait(timeout: 5)
        }
    }

    // --- bluetoothd's state, through the template's helpers ---

    @discardableResult
    func addAdapter(_ name: String = "hci0") throws -> String {
        try control.call(path: "/", "org.bluez.Mock", "AddAdapter", "('\(name)', 'Faro test')")
    }

    func addBeacon(
        _ address: String, uuid: String, major: UInt16, minor: UInt16, power: Int8 = -59,
        rssi: Int16, adapter: String = "hci0"
    ) throws {
        try control.call(
            path: "/", "org.bluez.Mock", "AddBeacon",
            "('\(adapter)', '\(address)', '\(uuid)', uint16 \(major), uint16 \(minor), "
                + "byte \(UInt8(bitPattern: power)), int16 \(rssi))")
    }

    func advertise(
        _ address: String, uuid: String, major: UInt16, minor: UInt16, power: Int8 = -59, rssi: Int16,
        adapter: String = "hci0"
    ) throws {
        try control.call(
            path: "/", "org.bluez.Mock", "Advertise",
            "('\(adapter)', '\(address)', '\(uuid)', uint16 \(major), uint16 \(minor), "
                + "byte \(UInt8(bitPattern: power)), int16 \(rssi))")
    }

    func setPowered(_ powered: Bool, adapter: String = "hci0") throws {
        try control.call(path: "/", "org.bluez.Mock", "SetPowered", "('\(adapter)', \(powered))")
    }

    /// The argument lists of every recorded call of `method` on `path`, printed as GVariant text.
    func calls(_ method: String, path: String = "/org/bluez/hci0") throws -> String {
        try control.call(path: path, "org.freedesktop.DBus.Mock", "GetMethodCalls", "('\(method)',)")
    }

    /// How many times `method` was called on `path`.
    func callCount(_ method: String, path: String = "/org/bluez/hci0") throws -> Int {
        try control.count(path: path, "org.freedesktop.DBus.Mock", "GetMethodCalls", "('\(method)',)")
    }

    /// Whether the adapter is powered, read back from the mock.
    func isPowered(adapter: String = "hci0") throws -> Bool {
        try control.call(
            path: "/org/bluez/\(adapter)", "org.freedesktop.DBus.Properties", "Get",
            "('org.bluez.Adapter1', 'Powered')") == "(<true>,)"
    }

    static func devicePath(_ address: String, adapter: String = "hci0") -> String {
        "/org/bluez/\(adapter)/dev_" + address.replacingOccurrences(of: ":", with: "_")
    }
}

/// A private bus whose policy refuses every call to `org.bluez.Adapter1`, as a distribution's policy refuses
/// users outside the `bluetooth` group.
func makeRestrictedBus() throws -> PrivateBus {
    try PrivateBus(extraPolicy: #"<deny send_interface="org.bluez.Adapter1"/>"#)
}
