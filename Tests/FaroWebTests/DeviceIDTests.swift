import CGtk
import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroWeb

/// The device id: ModemManager's EquipmentIdentifier over D-Bus (a dbusmock ModemManager on a private bus), else
/// the app-specific id derived from a machine-id file.
@Suite("Device id", .serialized)
struct DeviceIDTests {
    static let python = "/usr/bin/python3"
    static var dbusmockAvailable: Bool { RequiredTool.dbusmock.shouldRun }

    /// Starts a bare ModemManager mock (an ObjectManager at /org/freedesktop/ModemManager1) on `bus`.
    static func modemManager(on bus: PrivateBus) throws -> ChildProcess {
        let mock = try ChildProcess(
            python,
            [
                "-m", "dbusmock", "--system", "-m", "org.freedesktop.ModemManager1",
                "/org/freedesktop/ModemManager1", "org.freedesktop.ModemManager1",
            ],
            environment: bus.environment)
        let wait = try ChildProcess.run(
            "/usr/bin/gdbus", ["wait", "--system", "--timeout", "10", "org.freedesktop.ModemManager1"],
            environment: bus.environment, timeout: 15)
        guard wait.status == 0 else {
            throw WebTestError(description: "the ModemManager mock did not start: \(mock.stderr)")
        }
        return mock
    }

    /// Runs `body` with a private bus on which the ModemManager mock runs, stopped afterwards.
    static func withModemManager(_ body: (PrivateBus) throws -> Void) throws {
        try RequiredTool.dbusmock.require()
        let bus = try PrivateBus()
        let mock = try modemManager(on: bus)
        defer { mock.signal(SIGKILL) }
        try body(bus)
    }

    static func addModem(_ path: String, imei: String, bus: PrivateBus) throws {
        try addModem(path, identifier: "<'\(imei)'>", bus: bus)
    }

    /// A modem whose `EquipmentIdentifier` is `identifier`, a GVariant in text form (`<'3569…'>`, `<int32 42>`).
    static func addModem(_ path: String, identifier: String, bus: PrivateBus) throws {
        try mockCall(
            "AddObject",
            [
                path, "org.freedesktop.ModemManager1.Modem",
                "{'EquipmentIdentifier': \(identifier), 'Manufacturer': <'Quectel'>}", "[]",
            ], bus: bus)
    }

    static func mockCall(_ method: String, _ arguments: [String], bus: PrivateBus) throws {
        let result = try ChildProcess.run(
            "/usr/bin/gdbus",
            [
                "call", "--system", "--dest", "org.freedesktop.ModemManager1", "--object-path",
                "/org/freedesktop/ModemManager1", "--method", "org.freedesktop.DBus.Mock." + method,
            ] + arguments, environment: bus.environment, timeout: 15)
        guard result.status == 0 else { throw WebTestError(description: "\(method) failed: \(result.stderr)") }
    }

    @Test(.enabled(if: dbusmockAvailable, Comment(rawValue: RequiredTool.dbusmock.reason)))
    func aModemWhoseIdentifierIsNotAStringIsSkipped() throws {
        try Self.withModemManager { bus in
            try Self.addModem("/org/freedesktop/ModemManager1/Modem/1", identifier: "<int32 42>", bus: bus)
            try Self.addModem("/org/freedesktop/ModemManager1/Modem/2", identifier: "<['356938035643809']>", bus: bus)
            try Self.addModem("/org/freedesktop/ModemManager1/Modem/3", identifier: "<'490154203237518'>", bus: bus)
            let resolver = DeviceIDResolver(systemBusAddress: bus.address, machineIDPath: "/nonexistent/machine-id")
            #expect(resolver.modemEquipmentIdentifier() == "490154203237518")
        }
    }

    @Test(.enabled(if: dbusmockAvailable, Comment(rawValue: RequiredTool.dbusmock.reason)))
    func aReplyOfTheWrongTypeIsIgnoredAndTheMachineIDIsUsed() throws {
        try Self.withModemManager { bus in
            try Self.addModem("/org/freedesktop/ModemManager1/Modem/0", imei: "356938035643809", bus: bus)
            // A ModemManager (or an impostor on the bus) whose GetManagedObjects answers a string.
            try Self.mockCall(
                "AddMethod",
                ["org.freedesktop.DBus.ObjectManager", "GetManagedObjects", "", "s", "ret = 'no objects'"],
                bus: bus)
            let folder = try TemporaryDirectory("faro-web-wrong-type")
            try Data("51df0b4bc3b04c9780e299b98ca373b8\n".utf8).write(
                to: URL(fileURLWithPath: folder.file("machine-id")))
            let resolver = DeviceIDResolver(systemBusAddress: bus.address, machineIDPath: folder.file("machine-id"))
            #expect(resolver.modemEquipmentIdentifier() == nil)
            #expect(try resolver.resolve().source == .machine)
        }
    }

    @Test func repliesAreTypeCheckedAtEveryLevel() throws {
        // Built by hand, without a bus: what GLib would hand over for odd replies.
        func parse(_ text: String) throws -> OpaquePointer {
            var error: UnsafeMutablePointer<GError>?
            guard let value = g_variant_parse(nil, text, nil, nil, &error) else {
                if let error { g_error_free(error) }
                throw WebTestError(description: "cannot parse \(text)")
            }
            return g_variant_ref_sink(value)
        }
        let good = try parse(
            "({objectpath '/m/1': {'org.freedesktop.ModemManager1.Modem': {'EquipmentIdentifier': <'1234567'>}}},)")
        defer { g_variant_unref(good) }
        #expect(DeviceIDResolver.firstEquipmentIdentifier(inReply: good) == "1234567")
        for odd in ["('not objects',)", "(@a{sv} {},)", "([1, 2],)", "(<'x'>,)"] {
            let value = try parse(odd)
            defer { g_variant_unref(value) }
            #expect(DeviceIDResolver.firstEquipmentIdentifier(inReply: value) == nil, "\(odd)")
        }
    }

    @Test(.enabled(if: dbusmockAvailable, Comment(rawValue: RequiredTool.dbusmock.reason)))
    func theFirstModemsIMEIWins() throws {
        try Self.withModemManager { bus in
            try Self.addModem("/org/freedesktop/ModemManager1/Modem/10", imei: "490154203237518", bus: bus)
            try Self.addModem("/org/freedesktop/ModemManager1/Modem/2", imei: "356938035643809", bus: bus)
            let resolver = DeviceIDResolver(systemBusAddress: bus.address, machineIDPath: "/nonexistent/machine-id")
            #expect(resolver.modemEquipmentIdentifier() == "356938035643809")
            #expect(try resolver.resolve() == DeviceID(value: "356938035643809", source: .modem))
        }
    }

    @Test(.enabled(if: dbusmockAvailable, Comment(rawValue: RequiredTool.dbusmock.reason)))
    func theCLISendsTheModemsIMEI() throws {
        try Self.withModemManager { bus in
            try Self.addModem("/org/freedesktop/ModemManager1/Modem/0", imei: "356938035643809", bus: bus)
            let folder = try TemporaryDirectory("faro-web-imei")
            let backend = try TestBackend()
            let result = try ChildProcess.run(
                Paths.executable("faro"), ["page", backend.base + "/sitios/cine-tonala/"],
                environment: folder.xdgEnvironment.merging(bus.environment) { $1 }, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try backend.requests().first?["query"] as? String == "imei=356938035643809")
        }
    }

    @Test func withoutAModemTheMachineIDIsDerivedNeverSentRaw() throws {
        let bus = try PrivateBus()  // nobody owns org.freedesktop.ModemManager1 here
        let folder = try TemporaryDirectory("faro-web-mid")
        let path = folder.file("machine-id")
        try Data("51df0b4bc3b04c9780e299b98ca373b8\n".utf8).write(to: URL(fileURLWithPath: path))
        let resolver = DeviceIDResolver(systemBusAddress: bus.address, machineIDPath: path)
        #expect(resolver.modemEquipmentIdentifier() == nil)
        let id = try resolver.resolve()
        #expect(id.source == .machine)
        #expect(id.value.count == 32 && id.value != "51df0b4bc3b04c9780e299b98ca373b8")
        #expect(try resolver.resolve() == id)  // stable
        // Another machine gives another id.
        try Data("f03daaeb1c334b43a732172944bf772e\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try resolver.resolve().value != id.value)
    }

    @Test func hmacMatchesSystemdsKnownAnswer() throws {
        // systemd test-id128.c: app-specific id of 51df0b4b… for app f03daaeb… is 1dee5954e75c4d6fb96cc6c04ca18a86.
        let digest = try #require(
            DeviceIDResolver.hmacSHA256(
                key: try AppSpecificID.parseMachineID("51df0b4bc3b04c9780e299b98ca373b8"),
                message: try AppSpecificID.parseMachineID("f03daaeb1c334b43a732172944bf772e")))
        #expect(AppSpecificID.id(fromDigest: digest) == "1dee5954e75c4d6fb96cc6c04ca18a86")
    }

    @Test(.enabled(if: RequiredTool.systemdID128.shouldRun, Comment(rawValue: RequiredTool.systemdID128.reason)))
    func matchesSystemdID128OnThisMachine() throws {
        try RequiredTool.systemdID128.require()
        let app = AppSpecificID.faroAppID.map { String(format: "%02x", $0) }.joined()
        let systemd = try ChildProcess.run(
            "/usr/bin/systemd-id128", ["machine-id", "--app-specific=\(app)"], timeout: 20)
        try #require(systemd.status == 0, "\(systemd.stderr)")
        let ours = try DeviceIDResolver(systemBusAddress: "unix:path=/nonexistent", machineIDPath: "/etc/machine-id")
            .resolve()
        #expect(ours.value == systemd.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func unreadableMachineIDIsAClearError() {
        let resolver = DeviceIDResolver(
            systemBusAddress: "unix:path=/nonexistent", machineIDPath: "/nonexistent/machine-id")
        #expect(throws: DeviceIDError.self) { try resolver.resolve() }
        do { _ = try resolver.resolve() } catch { #expect(error.description.contains("/nonexistent/machine-id")) }
    }
}
