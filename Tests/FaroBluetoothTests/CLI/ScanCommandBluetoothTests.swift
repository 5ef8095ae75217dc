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
