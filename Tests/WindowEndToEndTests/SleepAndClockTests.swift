import FaroTestSupport
import Foundation
import Testing

/// Sleep, resume and clock changes on the real `faro --background` (docs/monitoring.md): python-dbusmock plays
/// logind (its `logind` template, on the private system bus), bluetoothd (Faro's template) and the notification
/// server; a real faro-backend names the places; libfaketime moves faro's wall clock while its monotonic clock
/// runs on, as a suspend does. Observed through the mocks' recorded calls and `faro visits --json` on the same
/// profile.
@Suite(
    "Sleep, resume and clock changes", .serialized,
    .enabled(if: RequiredTool.faketime.shouldRun, Comment(rawValue: RequiredTool.faketime.reason)))
struct SleepAndClockTests {
    typealias Desktop = BackgroundMonitoringTests.Desktop
    /// Waits up to `timeout` seconds for `condition` (errors count as "not yet").
    @discardableResult
    static func eventually(_ timeout: Double = 15, _ condition: () throws -> Bool) -> Bool {
        BackgroundMonitoringTests.eventually(timeout, condition)
    }
    static let uuid = BackgroundMonitoringTests.uuid

    /// One desktop with logind, bluetoothd and the notification server, and `faro --background --source bluez`
    /// running under the fake wall clock.
    final class Machine {
        let desktop: Desktop
        let clock: FakeWallClock
        private(set) var app: ChildProcess?

        /// `backendArguments` go to the desktop's faro-backend (`--fail-body-containing Veneno` …).
        init(backendArguments: [String] = []) throws {
            try RequiredTool.faketime.require()
            desktop = try Desktop(backendArguments: backendArguments)
            try desktop.notificationServer(actions: true)
            try desktop.mock("org.freedesktop.login1", ["--system", "--template", "logind"])
            try desktop.mock(
                "org.bluez",
                ["--system", "--template", Paths.packageRoot + "/Tests/FaroBluetoothTests/Templates/bluez_faro.py"])
            try desktop.gdbus("org.bluez", "/", "org.bluez.Mock.AddAdapter", ["hci0", "Faro test"])
            clock = try FakeWallClock(in: desktop.home)
        }

        func start() throws {
            var env = desktop.environment
            env.merge(clock.environment) { $1 }
            env["G_MESSAGES_DEBUG"] = "faro"
            let app = try ChildProcess(
                Paths.executable("faro"),
                ["--source", "bluez", "--no-tray", "--background", "--backend", desktop.backend.url],
                environment: env)
            self.app = app
            try desktop.waitForApp(app)
        }

        /// The calls of `method` the mock at `path` of `name` recorded.
        func calls(_ name: String, _ path: String, _ method: String) throws -> [[Any]] {
            try desktop.desktop(["calls", "--system", name, path, method]) as? [[Any]] ?? []
        }

        func bluez(_ method: String) throws -> Int { try calls("org.bluez", "/org/bluez/hci0", method).count }

        /// The inhibitor locks logind holds now.
        func inhibitors() throws -> Int {
            let text = try desktop.gdbus(
                "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager.ListInhibitors")
            return text.components(separatedBy: "'delay'").count - 1
        }

        func prepareForSleep(_ sleeping: Bool) throws {
            try desktop.gdbus(
                "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.DBus.Mock.EmitSignal",
                ["org.freedesktop.login1.Manager", "PrepareForSleep", "b", "[<\(sleeping)>]"])
        }

        func beacon(_ minor: Int) throws {
            try desktop.gdbus(
                "org.bluez", "/", "org.bluez.Mock.AddBeacon",
                [
                    "hci0", Machine.address(minor), SleepAndClockTests.uuid, "uint16 100", "uint16 \(minor)",
                    "byte 197",
                    "int16 -60",
                ])
        }

        static func address(_ minor: Int) -> String { "C0:FF:EE:00:00:0\(minor)" }

        /// Advertises `minor` a few times a second until `done` holds or `seconds` pass.
        func advertise(_ minor: Int, for seconds: Double, until done: () throws -> Bool) -> Bool {
            SleepAndClockTests.eventually(seconds) {
                try desktop.gdbus(
                    "org.bluez", "/", "org.bluez.Mock.Advertise",
                    [
                        "hci0", Machine.address(minor), SleepAndClockTests.uuid, "uint16 100", "uint16 \(minor)",
                        "byte 197", "int16 -60",
                    ])
                return try done()
            }
        }

        /// The visits `faro visits --json` lists on this profile: the business, entry and leaving times (seconds
        /// since 1970).
        func visits() throws -> [(place: String, entered: Double, left: Double?)] {
            let r = try ChildProcess.run(
                Paths.executable("faro"), ["visits", "--json"], environment: desktop.environment, timeout: 60)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return r.stdout.split(separator: "\n").compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let entered = (object["entered"] as? String).flatMap({ formatter.date(from: $0) })
                else { return nil }
                let left = (object["left"] as? String).flatMap { formatter.date(from: $0) }
                return (
                    object["business"] as? String ?? "", entered.timeIntervalSince1970, left?.timeIntervalSince1970
                )
            }
        }

        deinit {
            if let app { _ = BackgroundMonitoringTests.stop(app) }
        }
    }

    @Test func aSleepClosesVisitsAtTheLastReadingAndTheResumeAnnouncesNothingByItself() throws {
        let machine = try Machine()
        try machine.start()
        let app = try #require(machine.app)
        // The delay lock is taken at start.
        #expect(Self.eventually { try machine.inhibitors() == 1 }, "\(app.stderr)")
        let inhibit = try machine.calls("org.freedesktop.login1", "/org/freedesktop/login1", "Inhibit")
        #expect(inhibit.count == 1)
        #expect(inhibit.first?[0] as? String == "sleep")
        #expect(inhibit.first?[1] as? String == "Faro")
        #expect(inhibit.first?[3] as? String == "delay")

        // In the café: its visit is open.
        #expect(Self.eventually { try machine.bluez("StartDiscovery") == 1 })
        try machine.beacon(1)
        #expect(machine.advertise(1, for: 15) { try machine.desktop.zoneNotifications().count == 1 })
        #expect(Self.eventually { try machine.visits().first?.left == nil && machine.visits().count == 1 })
        let lastReading = Date().timeIntervalSince1970
        // Then only the bakery is heard, for 8 s more: inside the exit period, so the café's visit stays open.
        try machine.beacon(3)
        #expect(machine.advertise(3, for: 15) { try machine.visits().count == 2 })
        _ = machine.advertise(3, for: max(1, lastReading + 8 - Date().timeIntervalSince1970)) { false }
        let bakeryLastReading = Date().timeIntervalSince1970
        Thread.sleep(forTimeInterval: 2)  // nothing heard for 2 s before the lid closes
        let notificationsBeforeSleep = try machine.desktop.zoneNotifications().count

        // Going to sleep: each visit ends at its own place's last reading, discovery stops, the lock is released.
        try machine.prepareForSleep(true)
        #expect(Self.eventually { try machine.inhibitors() == 0 }, "\(app.stderr)")
        let beforeSleep = try machine.visits()
        let closed = try #require(beforeSleep.first { $0.place == "Café La Parroquia" }, "\(beforeSleep)")
        let left = try #require(closed.left, "the visit was not closed at the sleep")
        #expect(left >= closed.entered)
        #expect(left <= lastReading + 1, "left at \(left), the café's last reading at \(lastReading)")
        let bakery = try #require(beforeSleep.first { $0.place == "Panadería Santa Clara" }, "\(beforeSleep)")
        let bakeryLeft = try #require(bakery.left, "the bakery's visit was not closed at the sleep")
        #expect(bakeryLeft >= bakeryLastReading - 1.5 && bakeryLeft <= bakeryLastReading + 1, "\(bakery)")
        #expect(Self.eventually { try machine.bluez("StopDiscovery") == 1 })

        // Eight hours asleep: the wall clock jumps, the monotonic one does not. Awake: the lock is taken again and
        // discovery starts anew, and the resume alone announces nothing.
        try machine.clock.set("+8h")
        try machine.prepareForSleep(false)
        #expect(Self.eventually { try machine.inhibitors() == 1 })
        #expect(try machine.calls("org.freedesktop.login1", "/org/freedesktop/login1", "Inhibit").count == 2)
        #expect(Self.eventually { try machine.bluez("StartDiscovery") == 2 })
        Thread.sleep(forTimeInterval: 2)
        #expect(try machine.desktop.zoneNotifications().count == notificationsBeforeSleep)
        #expect(try machine.visits().count == 2)

        // The café heard after the resume is a new visit, from the new time, inside the cool-down: not announced.
        #expect(machine.advertise(1, for: 15) { try machine.visits().count == 3 })
        let visits = try machine.visits()
        let reopened = try #require(visits.first)
        #expect(reopened.place == "Café La Parroquia")
        #expect(reopened.entered >= left + 8 * 3600 - 60)
        #expect(reopened.left == nil)
        #expect(try machine.desktop.zoneNotifications().count == notificationsBeforeSleep)
        // A place first heard after the resume is announced.
        try machine.beacon(2)
        #expect(
            machine.advertise(2, for: 15) {
                try machine.desktop.zoneNotifications().count == notificationsBeforeSleep + 1
            })

        // No visit includes the sleep.
        _ = BackgroundMonitoringTests.stop(app)
        for visit in try machine.visits() {
            let end = try #require(visit.left, "\(visit.place) left open after quitting")
            #expect(end - visit.entered >= 0 && end - visit.entered < 3600, "\(visit)")
        }
    }

    /// The clock set two hours back, or eight hours forward (a correction, no sleep), while the café is still in
    /// range: nothing is announced again, and quitting ends the visit after the seconds the user was there: never
    /// negative (back), never hours long (forward).
    @Test(arguments: ["-2h", "+8h"])
    func aSteppedClockMakesNoOddVisitAndAnnouncesNothingAgain(_ step: String) throws {
        let machine = try Machine()
        try machine.start()
        let app = try #require(machine.app)
        #expect(Self.eventually { try machine.bluez("StartDiscovery") == 1 })
        try machine.beacon(1)
        #expect(machine.advertise(1, for: 15) { try machine.desktop.zoneNotifications().count == 1 })
        #expect(Self.eventually { try machine.visits().count == 1 })

        try machine.clock.set(step)
        _ = machine.advertise(1, for: 4) { false }
        #expect(try machine.desktop.zoneNotifications().count == 1)
        #expect(try machine.visits().count == 1)
        #expect(BackgroundMonitoringTests.stop(app) == 0)
        let visit = try #require(try machine.visits().first)
        let left = try #require(visit.left)
        #expect(left >= visit.entered)
        #expect(left - visit.entered < 60, "\(visit)")
    }

    @Test func aClockSteppedBackNeitherHastensNorHoldsTheOutboxsRetries() throws {
        // A row the backend refuses with 500 every time: retried 2 s, 4 s, 8 s … apart (half of each jittered).
        let machine = try Machine(backendArguments: ["--fail-body-containing", "Veneno"])
        let row = try FieldTests.registered(machine.desktop, "Veneno SA")
        try machine.start()
        let app = try #require(machine.app)
        func attempts() -> Int { (try? FieldTests.attempts(of: row, in: machine.desktop)) ?? -1 }
        #expect(Self.eventually(30) { attempts() >= 2 }, "\(app.stderr)")
        let second = Date()
        let before = attempts()

        // Two hours back right after a failed attempt: the next one comes after its backoff (at least 2 s for the
        // third attempt), not at once, and not two hours later.
        try machine.clock.set("-2h")
        #expect(Self.eventually(30) { attempts() > before }, "no retry after the clock was set back")
        let waited = Date().timeIntervalSince(second)
        #expect(waited >= 1, "retried \(waited) s after the previous attempt")
        #expect(app.process.isRunning)
    }
}

/// The quiet-scanner watchdog on the real `faro` with its window, in Spanish: the BlueZ mock keeps `Discovering`
/// true and delivers nothing; Faro restarts discovery (the mock's recorded calls), the status line says the
/// Bluetooth hears nothing, and a beacon heard again clears it (docs/monitoring.md). No logind runs on this
/// desktop's system bus.
@Suite("A scanner that goes quiet", .serialized)
struct QuietScannerTests {
    @Test func discoveryIsRestartedTheStatusLineSaysSoAndABeaconHeardAgainClearsIt() throws {
        let desktop = try BackgroundMonitoringTests.Desktop()
        try desktop.notificationServer(actions: true)
        try desktop.mock(
            "org.bluez",
            ["--system", "--template", Paths.packageRoot + "/Tests/FaroBluetoothTests/Templates/bluez_faro.py"])
        try desktop.gdbus("org.bluez", "/", "org.bluez.Mock.AddAdapter", ["hci0", "Faro test"])
        var env = desktop.environment
        env["FARO_WATCHDOG_SILENCE_SECONDS"] = "1"
        env["G_MESSAGES_DEBUG"] = "faro"
        // In Spanish, as the status line reads for its users (the test locales of scripts/make-locales.sh).
        env["LANG"] = "es_MX.UTF-8"
        env["LANGUAGE"] = "es"
        env["LOCPATH"] = Paths.packageRoot + "/build/locales"
        let app = try ChildProcess(
            Paths.executable("faro"), ["--source", "bluez", "--no-tray", "--backend", desktop.backend.url],
            environment: env)
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)
        func calls(_ method: String) throws -> Int {
            (try desktop.desktop(["calls", "--system", "org.bluez", "/org/bluez/hci0", method]) as? [Any] ?? []).count
        }
        func texts() throws -> [String] { try desktop.desktop(["texts"]) as? [String] ?? [] }
        func advertise(for seconds: Double = 15, until done: () throws -> Bool) -> Bool {
            SleepAndClockTests.eventually(seconds) {
                try desktop.gdbus(
                    "org.bluez", "/", "org.bluez.Mock.Advertise",
                    [
                        "hci0", "C0:FF:EE:00:00:01", SleepAndClockTests.uuid, "uint16 100", "uint16 1", "byte 197",
                        "int16 -60",
                    ])
                return try done()
            }
        }
        let quiet = "El Bluetooth no recibe nada desde hace 1 min"

        #expect(SleepAndClockTests.eventually { try calls("StartDiscovery") == 1 })
        try desktop.gdbus(
            "org.bluez", "/", "org.bluez.Mock.AddBeacon",
            ["hci0", "C0:FF:EE:00:00:01", SleepAndClockTests.uuid, "uint16 100", "uint16 1", "byte 197", "int16 -60"])
        #expect(advertise { try texts().contains { $0.contains("Café La Parroquia") } }, "\(app.stderr)")
        // A few seconds of traffic, then silence while Discovering stays true.
        _ = advertise(for: 3) { false }
        #expect(SleepAndClockTests.eventually(20) { try calls("StopDiscovery") >= 1 && calls("StartDiscovery") >= 2 })
        #expect(SleepAndClockTests.eventually { try texts().contains(quiet) }, "\((try? texts()) ?? [])")

        // Heard again: the status line no longer says so.
        #expect(advertise { try !texts().contains(quiet) })
        // It backed off: never more restarts than the doubling waits allow (1, 2, 4, 8 … s of silence apart).
        #expect(try calls("StopDiscovery") <= 4)
        // Without logind the debug log says once that sleep is not followed.
        let said = app.stderr.components(separatedBy: "sleep and resume are not followed").count - 1
        #expect(said == 1, "\(app.stderr)")
    }
}
