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
    static var dbusmockAvailable: Bool {
        (try? ChildProcess.run(python, ["-c", "import dbusmock"], timeout: 20).status) == 0
    }

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

    static func addModem(_ path: String, imei: String, bus: PrivateBus) throws {
        let result = try ChildProcess.run(
            "/usr/bin/gdbus",
            [
                "call", "--system", "--dest", "org.freedesktop.ModemManager1", "--object-path",
                "/org/freedesktop/ModemManager1",
                "--method", "org.freedesktop.DBus.Mock.AddObject", path, "org.freedesktop.ModemManager1.Modem",
                "{'EquipmentIdentifier': <'\(imei)'>, 'Manufacturer': <'Quectel'>}", "[]",
            ], environment: bus.environment, timeout: 15)
        guard result.status == 0 else { throw WebTestError(description: "AddObject failed: \(result.stderr)") }
    }

    @Test(.enabled(if: dbusmockAvailable, "python3-dbusmock is not installed"))
    func theFirstModemsIMEIWins() throws {
        let bus = try PrivateBus()
        let mock = try Self.modemManager(on: bus)
        defer { mock.signal(SIGKILL) }
        try Self.addModem("/org/freedesktop/ModemManager1/Modem/10", imei: "490154203237518", bus: bus)
        try Self.addModem("/org/freedesktop/ModemManager1/Modem/2", imei: "356938035643809", bus: bus)
        let resolver = DeviceIDResolver(systemBusAddress: bus.address, machineIDPath: "/nonexistent/machine-id")
        #expect(resolver.modemEquipmentIdentifier() == "356938035643809")
        #expect(try resolver.resolve() == DeviceID(value: "356938035643809", source: .modem))
    }

    @Test(.enabled(if: dbusmockAvailable, "python3-dbusmock is not installed"))
    func theCLISendsTheModemsIMEI() throws {
        let bus = try PrivateBus()
        let mock = try Self.modemManager(on: bus)
        defer { mock.signal(SIGKILL) }
        try Self.addModem("/org/freedesktop/ModemManager1/Modem/0", imei: "356938035643809", bus: bus)
        let folder = try TemporaryDirectory("faro-web-imei")
        let backend = try TestBackend()
        let result = try ChildProcess.run(
            Paths.executable("faro"), ["page", backend.base + "/sitios/cine-tonala/"],
            environment: folder.xdgEnvironment.merging(bus.environment) { $1 }, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try backend.requests().first?["query"] as? String == "imei=356938035643809")
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

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-id128")
                && FileManager.default.isReadableFile(atPath: "/etc/machine-id"),
            "needs systemd-id128 and /etc/machine-id"))
    func matchesSystemdID128OnThisMachine() throws {
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
