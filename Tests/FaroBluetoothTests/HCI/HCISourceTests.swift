import FaroCore
import FaroTestSupport
import Foundation
import Glibc
import Testing

@testable import FaroBluetooth

/// Whether this kernel offers Bluetooth sockets (the build machines do not: EAFNOSUPPORT).
let kernelHasBluetooth: Bool = {
    // 31 is AF_BLUETOOTH, 1 is BTPROTO_HCI.
    let fd = socket(31, Int32(SOCK_RAW.rawValue), 1)
    if fd >= 0 { close(fd) }
    return fd >= 0
}()

/// The raw HCI source: decoding recorded event bytes, the errno/status mapping, and the real errors this machine
/// produces.
struct HCISourceTests {
    /// An LE Advertising Report event as a raw HCI socket delivers it, with three reports: an iBeacon (RSSI −82),
    /// a scan response without one, and an iBeacon whose RSSI the controller did not report (127).
    static let threeReports =
        "043e5f02030001010000eeffc01e0201061aff4c000215fa20de300b1e4c5a9b5ed3a0be0c0de100640001c5ae"
        + "0401020000eeffc003020a00b00000030000eeffc01e0201061aff4c000215fa20de300b1e4c5a9b5ed3a0be0c0de100640003c57f"
    /// One report as recorded in the demo walk (C0:FF:EE:00:00:02, RSSI −92).
    static let recorded = "043e2a02010000020000eeffc01e0201061aff4c000215fa20de300b1e4c5a9b5ed3a0be0c0de100640002c3a4"

    func sightings(_ hex: String) throws -> ([BeaconSighting], HCIEventRejection?) {
        let bytes = try Hex.decode(hex)
        var found: [BeaconSighting] = []
        let why = bytes.withUnsafeBytes { HCISource.sightings(inEvent: $0, at: 42) { found.append($0) } }
        return (found, why)
    }

    @Test func decodesEveryReportOfAnEvent() throws {
        let (found, why) = try sightings(Self.threeReports)
        #expect(why == nil)
        #expect(found.map(\.address.description) == ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:03"])
        #expect(found.map(\.beacon.minor) == [1, 3])
        #expect(found.map(\.rssi) == [-82, 127])
        #expect(found.allSatisfy { $0.beacon.major == 100 && $0.beacon.measuredPower == -59 && $0.time == 42 })
        #expect(found.first?.beacon.uuid.description.lowercased() == "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1")
    }

    @Test func decodesARecordedEvent() throws {
        let (found, why) = try sightings(Self.recorded)
        #expect(why == nil)
        #expect(found.count == 1)
        #expect(found.first?.address.description == "C0:FF:EE:00:00:02" && found.first?.rssi == -92)
    }

    @Test func refusesWhatIsNotAnAdvertisingReport() throws {
        // Command Complete for LE Set Scan Enable, a truncated report, and a report count of zero.
        let (none1, commandComplete) = try sightings("040e0401 0c2000".replacingOccurrences(of: " ", with: ""))
        #expect(none1.isEmpty && commandComplete == .notLEMeta(eventCode: 0x0E))
        let (none2, truncated) = try sightings(String(Self.recorded.dropLast(10)))
        #expect(none2.isEmpty && truncated != nil)
        let (none3, zero) = try sightings("043e020200")
        #expect(none3.isEmpty && zero == .badReportCount(0))
    }

    @Test func errnoValuesBecomeActionableErrors() {
        let exe = "/usr/local/bin/faro"
        func map(_ code: Int32, _ step: HCIStep = .setScanParameters) -> ScanError {
            HCIErrorMapping.error(errno: code, step: step, device: "hci0", executable: exe)
        }
        #expect(map(EAFNOSUPPORT, .openSocket) == .bluetoothNotInKernel)
        #expect(map(ENODEV, .openDevice) == .noAdapter(device: "hci0"))
        #expect(
            HCIErrorMapping.error(errno: ENODEV, step: .findAdapter, device: nil, executable: exe)
                == .noAdapter(device: nil))
        #expect(map(EPERM) == .missingRawCapability(executable: exe))
        #expect(map(EACCES) == .missingRawCapability(executable: exe))
        #expect(map(ENETDOWN) == .adapterDown(device: "hci0"))
        #expect(map(ETIMEDOUT) == .controllerTimeout(device: "hci0", command: "LE Set Scan Parameters"))
        if case .controllerBusy = map(EBUSY) {} else { Issue.record("EBUSY is a busy controller") }
        if case .controllerBusy = map(EIO, .enableScan) {} else { Issue.record("EIO is a busy controller") }
        if case .systemCallFailed(_, let code, _) = map(EMFILE) {
            #expect(code == EMFILE)
        } else {
            Issue.record("other errors keep their errno")
        }
        let disallowed = HCIErrorMapping.error(status: 0x0C, step: .enableScan, device: "hci0")
        #expect(
            disallowed.description.contains("Command Disallowed") && disallowed.description.contains("--source bluez"))
        #expect(
            HCIErrorMapping.error(status: 0x12, step: .enableScan, device: "hci0")
                == .commandFailed(device: "hci0", command: "LE Set Scan Enable", status: 0x12))
    }

    @Test func messagesSayWhatToDo() {
        #expect(
            ScanError.missingRawCapability(executable: "/opt/faro/bin/faro").description
                .contains("sudo setcap cap_net_raw,cap_net_admin+eip /opt/faro/bin/faro"))
        #expect(ScanError.bluetoothNotInKernel.description.contains("EAFNOSUPPORT"))
        #expect(ScanError.noAdapter(device: nil).description.contains("ENODEV"))
        #expect(ScanError.controllerBusy(device: "hci0", detail: "EBUSY").description.contains("--source bluez"))
        #expect(
            ScanError.commandFailed(device: "hci0", command: "LE Set Scan Enable", status: 0x0C).description
                .contains("0x0c"))
        #expect(HCISource.deviceNumber("hci3") == 3)
        #expect(HCISource.deviceNumber("hci") == nil && HCISource.deviceNumber("usb0") == nil)
        #expect(HCISource.deviceNumber("hci-1") == nil)
    }

    @Test(.enabled(if: !kernelHasBluetooth, "this kernel has Bluetooth; EAFNOSUPPORT cannot be produced here"))
    func noBluetoothInTheKernelIsReportedAtStart() {
        #expect(throws: ScanError.bluetoothNotInKernel) { try HCISource.probeKernel() }
        let driver = SourceDriver()
        #expect(throws: ScanError.bluetoothNotInKernel) { try driver.start(HCISource(device: "hci0")) }
        #expect(throws: ScanError.invalidDeviceName("bt0")) { try driver.start(HCISource(device: "bt0")) }
        #expect(driver.events.isEmpty)
    }
}

/// The reader thread and its hand-over to the GLib main context, fed through a socket pair instead of an adapter.
struct HCIReaderTests {
    @Test func eventsReadOnTheThreadArriveOnTheContext() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        defer {
            close(pair[0])
            close(pair[1])
        }
        let driver = SourceDriver()
        let source = HCISource(device: "hci0", clock: { 7 })
        #expect(throws: Never.self) {
            try source.start(readingFrom: pair[0]) { [weak driver] event in driver?.events.append(event) }
        }
        for hex in [
            HCISourceTests.threeReports, "040e0401 0c2000".replacingOccurrences(of: " ", with: ""),
            HCISourceTests.recorded,
        ] {
            let bytes = try Hex.decode(hex)
            #expect(bytes.withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) } == bytes.count)
        }
        #expect(driver.run(timeout: 5) { driver.sightings.count == 3 })
        #expect(driver.sightings.map(\.beacon.minor) == [1, 3, 2])
        #expect(driver.sightings.allSatisfy { $0.time == 7 })
        #expect(driver.run(timeout: 5) { source.statistics.events == 3 })
        #expect(source.statistics == HCISource.Statistics(events: 3, sightings: 3, rejected: 1))
        #expect(driver.stop(source))
    }
}
