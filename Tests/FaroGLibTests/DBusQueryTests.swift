import CGio
import FaroGLib
import FaroTestSupport
import Foundation
import Testing

/// FaroGLib's blocking D-Bus queries against a real bus daemon (a private one) and, for replies of the wrong
/// type, a dbusmock peer: what the one-off checks (bluetoothd there? a Secret Service? a modem?) rely on.
@Suite(.serialized) struct DBusQueryTests {
    /// A connection to `bus`, closed after `body`.
    static func withConnection<T>(_ bus: PrivateBus, _ body: (OpaquePointer) throws -> T) throws -> T {
        let connection = try DBusClient.connectSync(address: bus.address).get()
        defer { DBusClient.close(connection, waiting: true) }
        return try body(connection)
    }

    @Test func nameHasOwnerAsksTheBus() throws {
        let bus = try PrivateBus()
        try Self.withConnection(bus) { connection in
            #expect(MessageBus.nameHasOwner("org.freedesktop.DBus", on: connection) == .success(true))
            #expect(MessageBus.nameHasOwner("org.example.Nobody", on: connection) == .success(false))
        }
    }

    @Test func activatableNamesListsWhatTheBusCanStart() throws {
        let bus = try PrivateBus()
        try Self.withConnection(bus) { connection in
            let names = try MessageBus.activatableNames(on: connection).get()
            // The bus daemon always lists itself; this private bus has no service files.
            #expect(names == ["org.freedesktop.DBus"])
        }
    }

    @Test func aConnectionToNoBusIsATypedFailure() {
        guard case .failure(let failure) = DBusClient.connectSync(address: "unix:path=/nonexistent/faro-bus") else {
            Issue.record("connected to a bus that does not exist")
            return
        }
        #expect(!failure.message.isEmpty)
    }

    @Test func booleansAreTypeChecked() {
        let yes: OpaquePointer = g_variant_ref_sink(g_variant_new_boolean(1))
        let number: OpaquePointer = g_variant_ref_sink(g_variant_new_int32(1))
        defer {
            g_variant_unref(yes)
            g_variant_unref(number)
        }
        #expect(GVariantReading.boolean(yes) == true)
        #expect(GVariantReading.boolean(number) == nil)
    }

    @Test func aReplyTypeThatIsNotADBusTypeIsAFailureNotAnAbort() throws {
        let bus = try PrivateBus()
        try Self.withConnection(bus) { connection in
            let result = DBusClient.callSync(
                connection, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", method: "ListNames", replyType: "(not a type")
            guard case .failure(let failure) = result else {
                Issue.record("an invalid reply type was accepted")
                return
            }
            #expect(failure.name == "org.freedesktop.DBus.Error.InvalidArgs")
        }
    }

    /// A bare dbusmock peer that owns `org.example.FaroMock` with an ObjectManager at `/org/example/FaroMock`.
    static func mockPeer(on bus: PrivateBus) throws -> ChildProcess {
        let mock = try ChildProcess(
            "/usr/bin/python3",
            ["-m", "dbusmock", "-m", "org.example.FaroMock", "/org/example/FaroMock", "org.example.FaroMock"],
            environment: bus.environment)
        let wait = try ChildProcess.run(
            "/usr/bin/gdbus", ["wait", "--session", "--timeout", "10", "org.example.FaroMock"],
            environment: bus.environment, timeout: 15)
        guard wait.status == 0 else { throw Missing(description: "the mock did not start: \(mock.stderr)") }
        return mock
    }

    /// Calls one of dbusmock's own methods on the mock.
    static func mock(_ method: String, _ arguments: [String], bus: PrivateBus) throws {
        let result = try ChildProcess.run(
            "/usr/bin/gdbus",
            [
                "call", "--session", "--dest", "org.example.FaroMock", "--object-path", "/org/example/FaroMock",
                "--method", "org.freedesktop.DBus.Mock." + method,
            ] + arguments, environment: bus.environment, timeout: 15)
        guard result.status == 0 else { throw Missing(description: "\(method) failed: \(result.stderr)") }
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    @Test(.enabled(if: RequiredTool.dbusmock.shouldRun, Comment(rawValue: RequiredTool.dbusmock.reason)))
    func managedObjectsAreReadAndAReplyOfAnotherTypeIsRefused() throws {
        try RequiredTool.dbusmock.require()
        let bus = try PrivateBus()
        let peer = try Self.mockPeer(on: bus)
        defer { peer.signal(SIGKILL) }
        try Self.mock(
            "AddObject",
            ["/org/example/FaroMock/Thing/1", "org.example.Thing", "{'Name': <'uno'>, 'Size': <int32 3>}", "[]"],
            bus: bus)
        try Self.withConnection(bus) { connection in
            let reply = try ObjectManager.managedObjectsSync(
                connection, destination: "org.example.FaroMock", path: "/org/example/FaroMock", autoStart: false
            ).get()
            defer { GVariantReading.release(reply) }
            var seen: [String: String] = [:]
            GVariantReading.forEachManagedObject(reply) { path, interfaces in
                GVariantReading.forEachInterface(interfaces) { name, properties in
                    guard name == "org.example.Thing" else { return }
                    seen[path] = GVariantReading.lookup(properties, "Name") { GVariantReading.string($0) }
                    // A property of another type than asked for reads as nothing.
                    #expect(GVariantReading.lookup(properties, "Size") { GVariantReading.string($0) } == nil)
                }
            }
            #expect(seen == ["/org/example/FaroMock/Thing/1": "uno"])

            // A peer whose GetManagedObjects answers a string: GDBus refuses the reply, nothing is read.
            try Self.mock(
                "AddMethod", ["org.freedesktop.DBus.ObjectManager", "GetManagedObjects", "", "s", "ret = 'nothing'"],
                bus: bus)
            let refused = ObjectManager.managedObjectsSync(
                connection, destination: "org.example.FaroMock", path: "/org/example/FaroMock", autoStart: false)
            guard case .failure(let failure) = refused else {
                Issue.record("a GetManagedObjects reply of type (s) was accepted")
                return
            }
            #expect(failure.message.contains("(a{oa{sa{sv}}})"), "\(failure)")
        }
    }
}
