import FaroTestSupport
import Foundation
import Testing

/// `faro scan` with the real radios' sources, run as the real binary against a private bus.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ScanCommandBluetoothTests {
    static let uuid = "f7826da6-4fa2-4e98-8024-bc5b71e0893e"
    let faro = Paths.executable("faro")

    func env(_ mock: BlueZMock, _ folder: TemporaryDirectory) -> [String: String] {
        var env = folder.xdgEnvironment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = mock.address
        return env
    }

    /// Waits until the child's stderr contains `text` (or `timeout` seconds pass).
    func waitForStderr(_ child: ChildProcess, _ text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !child.stderr.contains(text) {
            if Date() > deadline || !child.process.isRunning { return child.stderr.contains(text) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    @Test func scanBluezRangesBeaconsFromBluetoothd() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
        let folder = try TemporaryDirectory()
        let scan = try ChildProcess(
            faro, ["scan", "--source", "bluez", "--json", "--duration", "3"],
            environment: env(mock, folder))
        #expect(waitForStderr(scan, "scanning with hci0"))
        for _ in 0..<15 {
            try mock.advertise("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(scan.wait(timeout: 10) == 0, "\(scan.stderr)")
        let ticks = try scan.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(ticks.map { $0["t"] as? Double } == [1.0, 2.0, 3.0])
        let beacons = try #require(ticks.last?["beacons"] as? [[String: Any]])
        #expect(beacons.count == 1)
        #expect((beacons.first?["uuid"] as? String)?.lowercased() == Self.uuid)
        #expect(beacons.first?["major"] as? Int == 5 && beacons.first?["minor"] as? Int == 6)
        #expect(beacons.first?["address"] as? String == "C0:FF:EE:00:00:01")
        #expect(beacons.first?["rssi"] as? Int == -60)
        #expect(try mock.callCount("StopDiscovery") == 1, "discovery is stopped on exit")
    }

    /// python-dbusmock's `logind` template on the BlueZ mock's private system bus: its inhibitor locks, its
    /// recorded calls, and `PrepareForSleep` emitted at will.
    final class LogindMock {
        static let path = "/org/freedesktop/login1"
        let control: BusControl
        private let process: ChildProcess

        init(on mock: BlueZMock) throws {
            control = mock.control
            process = try ChildProcess(
                "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "logind"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": mock.address])
            let deadline = Date().addingTimeInterval(10)
            while !(try control.hasOwner("org.freedesktop.login1")) {
                if Date() > deadline || !process.process.isRunning {
                    throw HarnessError(description: "the logind mock did not start: \(process.stderr)")
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }

        /// The delay locks logind holds now.
        func delayLocks() throws -> Int {
            let text = try control.call(
                "org.freedesktop.login1", path: LogindMock.path, "org.freedesktop.login1.Manager", "ListInhibitors")
            return text.components(separatedBy: "'delay'").count - 1
        }

        /// The recorded `Inhibit` calls, printed as GVariant text, and how many there were.
        func inhibitCalls() throws -> (text: String, count: Int) {
            let text = try control.call(
                "org.freedesktop.login1", path: LogindMock.path, "org.freedesktop.DBus.Mock", "GetMethodCalls",
                "('Inhibit',)")
            let count = try control.count(
                "org.freedesktop.login1", path: LogindMock.path, "org.freedesktop.DBus.Mock", "GetMethodCalls",
                "('Inhibit',)")
            return (text, count)
        }

        func prepareForSleep(_ sleeping: Bool) throws {
            try control.call(
                "org.freedesktop.login1", path: LogindMock.path, "org.freedesktop.DBus.Mock", "EmitSignal",
                "('org.freedesktop.login1.Manager', 'PrepareForSleep', 'b', [<\(sleeping)>])")
        }

        deinit {
            process.signal(SIGKILL)
            process.wait(timeout: 5)
        }
    }

    /// Waits up to `timeout` seconds for `condition` (errors count as "not yet").
    /// Advertises the test beacon (5/6) again and again until `done` holds, as a beacon goes on advertising.
    func advertise(_ mock: BlueZMock, until done: () throws -> Bool) -> Bool {
        eventually {
            try mock.advertise("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
            return try done()
        }
    }

    func eventually(_ timeout: Double = 10, _ condition: () throws -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? condition()) == true { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (try? condition()) == true
    }

    /// The JSON ticks printed so far (a partly written last line is left out).
    func ticks(_ scan: ChildProcess) -> [[String: Any]] {
        scan.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func beaconCount(_ tick: [String: Any]) -> Int { (tick["beacons"] as? [Any])?.count ?? -1 }

    @Test func scanFollowsLogindAcrossASleep() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
        let logind = try LogindMock(on: mock)
        let folder = try TemporaryDirectory()
        var environment = env(mock, folder)
        environment["G_MESSAGES_DEBUG"] = "faro"
        let scan = try ChildProcess(faro, ["scan", "--source", "bluez", "--json"], environment: environment)
        #expect(waitForStderr(scan, "scanning with hci0"))
        // The delay lock is taken at the start.
        #expect(eventually { try logind.delayLocks() == 1 }, "\(scan.stderr)")
        let inhibit = try logind.inhibitCalls()
        #expect(inhibit.count == 1)
        #expect(inhibit.text.contains("'sleep'") && inhibit.text.contains("'Faro'") && inhibit.text.contains("'delay'"))
        #expect(advertise(mock) { beaconCount(ticks(scan).last ?? [:]) == 1 }, "\(scan.stderr)")

        // Going to sleep: discovery stops, the beacon is forgotten, then the lock goes.
        try logind.prepareForSleep(true)
        #expect(eventually { try logind.delayLocks() == 0 }, "\(scan.stderr)")
        let asleepFrom = ticks(scan).count
        #expect(eventually { try mock.callCount("StopDiscovery") == 1 })
        #expect(eventually { ticks(scan).count >= asleepFrom + 2 })
        #expect(ticks(scan).dropFirst(asleepFrom).allSatisfy { beaconCount($0) == 0 }, "\(scan.stdout)")

        // Awake: the lock is taken again and a new discovery starts; the beacon is not present until heard again.
        try logind.prepareForSleep(false)
        #expect(eventually { try mock.callCount("StartDiscovery") == 2 }, "\(scan.stderr)")
        #expect(eventually { try logind.delayLocks() == 1 })
        #expect(try logind.inhibitCalls().count == 2)
        let awakeFrom = ticks(scan).count
        #expect(eventually { ticks(scan).count >= awakeFrom + 2 })
        #expect(ticks(scan).dropFirst(awakeFrom).allSatisfy { beaconCount($0) == 0 }, "\(scan.stdout)")
        #expect(advertise(mock) { beaconCount(ticks(scan).last ?? [:]) == 1 }, "\(scan.stderr)")

        scan.signal(SIGINT)
        #expect(scan.wait(timeout: 10) == 0, "\(scan.stderr)")
        #expect(try mock.callCount("StopDiscovery") == 2, "discovery is stopped on exit")
        #expect(eventually { try logind.delayLocks() == 0 }, "the lock goes with the scan")
        // t counts one second per tick, without a jump or a repeat across the sleep.
        let times = ticks(scan).compactMap { $0["t"] as? Double }
        #expect(times == (1...times.count).map(Double.init), "\(times)")
        #expect(!scan.stderr.contains("not followed"), "\(scan.stderr)")
    }

    /// The `time_utc` of each CSV row printed so far, in seconds since 1970.
    func csvTimes(_ scan: ChildProcess) -> [Double] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return scan.stdout.split(separator: "\r\n").dropFirst().compactMap { line in
            line.split(separator: ",").first.flatMap { formatter.date(from: String($0)) }?.timeIntervalSince1970
        }
    }

    @Test(.enabled(if: RequiredTool.faketime.shouldRun, Comment(rawValue: RequiredTool.faketime.reason)))
    func csvTimesAfterASleepAreTheWallClocksOfTheResume() throws {
        try RequiredTool.faketime.require()
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
        let logind = try LogindMock(on: mock)
        let folder = try TemporaryDirectory()
        let clock = try FakeWallClock(in: folder)
        var environment = env(mock, folder)
        environment.merge(clock.environment) { $1 }
        let scan = try ChildProcess(faro, ["scan", "--source", "bluez", "--csv"], environment: environment)
        #expect(waitForStderr(scan, "scanning with hci0"))
        #expect(eventually { try logind.delayLocks() == 1 }, "\(scan.stderr)")
        #expect(advertise(mock) { csvTimes(scan).count >= 2 }, "\(scan.stdout)")

        // Eight hours asleep: the wall clock jumps, the monotonic clock that stamps readings does not.
        try logind.prepareForSleep(true)
        #expect(eventually { try logind.delayLocks() == 0 })
        let before = csvTimes(scan)
        try clock.set("+8h")
        try logind.prepareForSleep(false)
        #expect(eventually { try mock.callCount("StartDiscovery") == 2 }, "\(scan.stderr)")
        #expect(advertise(mock) { csvTimes(scan).count >= before.count + 2 }, "\(scan.stdout)")
        scan.signal(SIGINT)
        #expect(scan.wait(timeout: 10) == 0, "\(scan.stderr)")

        let now = Date().timeIntervalSince1970
        let after = csvTimes(scan).dropFirst(before.count)
        #expect(before.allSatisfy { abs($0 - now) < 120 }, "\(before)")
        #expect(!after.isEmpty && after.allSatisfy { abs($0 - (now + 8 * 3600)) < 120 }, "\(after)")
    }

    @Test(.enabled(if: RequiredTool.faketime.shouldRun, Comment(rawValue: RequiredTool.faketime.reason)))
    func aWallClockSteppedForwardOrBackChangesNeitherTNorWhatIsListed() throws {
        try RequiredTool.faketime.require()
        let mock = try BlueZMock()
        try mock.addAdapter()
        try mock.addBeacon("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
        let folder = try TemporaryDirectory()
        let clock = try FakeWallClock(in: folder)
        var environment = env(mock, folder)
        environment.merge(clock.environment) { $1 }
        let scan = try ChildProcess(faro, ["scan", "--source", "bluez", "--json"], environment: environment)
        /// Advertises a few times a second until `ticks` more ticks are printed.
        func advertise(ticks more: Int) -> Bool {
            let from = ticks(scan).count
            return eventually {
                try mock.advertise("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
                return ticks(scan).count >= from + more
            }
        }
        #expect(waitForStderr(scan, "scanning with hci0"))
        #expect(
            eventually {
                try mock.advertise("C0:FF:EE:00:00:01", uuid: Self.uuid, major: 5, minor: 6, rssi: -60)
                return beaconCount(ticks(scan).last ?? [:]) == 1
            })
        let present = ticks(scan).count - 1
        try clock.set("+8h")
        #expect(advertise(ticks: 3))
        try clock.set("-2h")
        #expect(advertise(ticks: 3))
        scan.signal(SIGINT)
        #expect(scan.wait(timeout: 10) == 0, "\(scan.stderr)")
        let all = ticks(scan)
        // One tick a second, counted on the monotonic clock: no jump, no repeat, no burst.
        let times = all.compactMap { $0["t"] as? Double }
        #expect(times == (1...times.count).map(Double.init), "\(times)")
        // The beacon heard all along stays listed, once, through both steps.
        #expect(all.dropFirst(present).allSatisfy { beaconCount($0) == 1 }, "\(scan.stdout)")
    }

    @Test func withoutLogindTheScanWorksAndTheDebugLogSaysSoOnce() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        let folder = try TemporaryDirectory()
        var environment = env(mock, folder)
        environment["G_MESSAGES_DEBUG"] = "faro"
        let r = try ChildProcess.run(
            faro, ["scan", "--source", "bluez", "--json", "--duration", "2"], environment: environment, timeout: 20)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "sleep and resume are not followed").count - 1 == 1, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 2)
        // Without the debug log, nothing is said about it.
        let quiet = try ChildProcess.run(
            faro, ["scan", "--source", "bluez", "--duration", "1"], environment: env(mock, folder), timeout: 20)
        #expect(quiet.status == 0)
        #expect(!quiet.stderr.contains("sleep"), "\(quiet.stderr)")
    }

    @Test func theDefaultSourceIsBluezWhenBluetoothdIsThere() throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        let folder = try TemporaryDirectory()
        let r = try ChildProcess.run(faro, ["scan", "--duration", "1"], environment: env(mock, folder), timeout: 20)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("scanning with hci0"))
        #expect(r.stdout.contains("t=1.0s  0 beacon(s) in range"))
    }

    @Test func withoutBluetoothdTheDefaultNamesTheOtherSources() throws {
        let mock = try BlueZMock(running: false)
        let folder = try TemporaryDirectory()
        let r = try ChildProcess.run(faro, ["scan", "--duration", "1"], environment: env(mock, folder), timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.contains("--source hci") && r.stderr.contains("--source demo"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)

        var noBus = folder.xdgEnvironment
        noBus["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + folder.file("no-such-socket")
        let lost = try ChildProcess.run(faro, ["scan"], environment: noBus, timeout: 20)
        #expect(lost.status == 1)
        #expect(lost.stderr.contains("cannot reach the system D-Bus") && lost.stderr.contains("--source demo"))
    }

    @Test func waitsForBluetoothdAndStopsCleanlyOnSignals() throws {
        let mock = try BlueZMock(running: false)
        let folder = try TemporaryDirectory()
        for signal in [SIGTERM, SIGINT] {
            let scan = try ChildProcess(faro, ["scan", "--source", "bluez"], environment: env(mock, folder))
            #expect(waitForStderr(scan, "bluetoothd is not running"))
            try mock.start()
            try mock.addAdapter()
            #expect(waitForStderr(scan, "scanning with hci0"))
            scan.signal(signal)
            #expect(scan.wait(timeout: 10) == 0, "signal \(signal): \(scan.stderr)")
            #expect(try mock.callCount("StopDiscovery") == 1, "signal \(signal)")
            try mock.stop()
        }
    }

    @Test func optionsBelongToTheirSource() throws {
        let folder = try TemporaryDirectory()
        let r = try ChildProcess.run(
            faro, ["scan", "--source", "demo", "--adapter", "hci0"],
            environment: folder.xdgEnvironment, timeout: 20)
        #expect(r.status == 2 && r.stderr.contains("--adapter"))
        let bad = try ChildProcess.run(
            faro, ["scan", "--source", "hci", "--device", "bt0"],
            environment: folder.xdgEnvironment, timeout: 20)
        #expect(bad.status == 1 && bad.stderr.contains("--device must name an adapter like hci0"))
    }

    @Test(.enabled(if: !kernelHasBluetooth, "this kernel has Bluetooth; EAFNOSUPPORT cannot be produced here"))
    func scanHciExplainsAKernelWithoutBluetooth() throws {
        let folder = try TemporaryDirectory()
        for arguments in [["scan", "--source", "hci"], ["scan", "--source", "hci", "--device", "hci0", "--json"]] {
            let r = try ChildProcess.run(faro, arguments, environment: folder.xdgEnvironment, timeout: 20)
            #expect(r.status == 1)
            #expect(r.stderr.contains("EAFNOSUPPORT") && r.stderr.contains("--source demo"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }
}
