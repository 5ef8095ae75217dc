import Testing

@testable import FaroCore

@Suite("HCI LE Advertising Report events")
struct HCIEventParserTests {
    @Test func realEasiBeaconEvent() throws {
        let reports = try HCIEventParser.reports(in: DeviceFrames.bytes(DeviceFrames.easiBeaconHCI)).get()
        #expect(reports.count == 1)
        #expect(reports[0].eventType == 3)
        #expect(reports[0].addressType == 1)
        #expect(reports[0].address.description == "F7:85:42:AD:11:CE")
        #expect(reports[0].rssi == -71)
        #expect(reports[0].data.count == 31)
        let sightings = try AdvertisementDecoder.decode(DeviceFrames.bytes(DeviceFrames.easiBeaconHCI), kind: .hci)
            .get()
        #expect(sightings.count == 1)
        #expect(sightings[0].beacon.measuredPower == -69)
        #expect(sightings[0].address?.description == "F7:85:42:AD:11:CE")
    }

    /// Builds a legacy event with the given reports (type, address, AD hex, rssi).
    func legacyEvent(_ reports: [(UInt8, String, String, Int8)], indicator: Bool = true) -> [UInt8] {
        var params: [UInt8] = [0x02, UInt8(reports.count)]
        for (type, address, ad, rssi) in reports {
            let data = DeviceFrames.bytes(ad)
            let addr = DeviceFrames.bytes(address.replacingOccurrences(of: ":", with: "")).reversed()
            params += [type, 0x00] + addr + [UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
        }
        return (indicator ? [0x04] : []) + [0x3E, UInt8(params.count)] + params
    }

    @Test func severalReportsInOneEvent() throws {
        let event = legacyEvent([
            (0, "C0:FF:EE:00:00:01", DeviceFrames.canonical, -60),
            (4, "C0:FF:EE:00:00:02", "0909466172", -70),
            (3, "C0:FF:EE:00:00:03", DeviceFrames.noFlags, 127),
        ])
        let reports = try HCIEventParser.reports(in: event).get()
        #expect(reports.map(\.address.description) == ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02", "C0:FF:EE:00:00:03"])
        #expect(reports.map(\.rssi) == [-60, -70, nil])
        let sightings = try AdvertisementDecoder.decode(event, kind: .hci).get()
        #expect(sightings.count == 2)
        #expect(sightings[1].rssi == nil)
    }

    @Test func packetIndicatorIsOptional() throws {
        let event = legacyEvent([(0, "C0:FF:EE:00:00:01", DeviceFrames.canonical, -60)], indicator: false)
        #expect(try HCIEventParser.reports(in: event).get().count == 1)
    }

    @Test func extendedReport() throws {
        let ad = DeviceFrames.bytes(DeviceFrames.canonical)
        var report: [UInt8] = [0x10, 0x00, 0x00] + [0x06, 0x05, 0x04, 0x03, 0x02, 0x01]
        report += [0x01, 0x00, 0xFF, 0x7F, UInt8(bitPattern: -55), 0x00, 0x00, 0x00] + [0, 0, 0, 0, 0, 0]
        report += [UInt8(ad.count)] + ad
        let params: [UInt8] = [0x0D, 0x01] + report
        let event: [UInt8] = [0x04, 0x3E, UInt8(params.count)] + params
        let reports = try HCIEventParser.reports(in: event).get()
        #expect(reports.count == 1)
        #expect(reports[0].isExtended)
        #expect(reports[0].eventType == 0x0010)
        #expect(reports[0].address.description == "01:02:03:04:05:06")
        #expect(reports[0].rssi == -55)
        #expect(try AdvertisementDecoder.decode(event, kind: .hci).get()[0].beacon.minor == 2)
    }

    @Test func rejections() {
        func why(_ bytes: [UInt8]) -> HCIEventRejection? {
            if case .failure(let r) = HCIEventParser.reports(in: bytes) { return r }
            return nil
        }
        let good = DeviceFrames.bytes(DeviceFrames.easiBeaconHCI)
        #expect(why([]) == .tooShort(0))
        #expect(why([0x02, 0x3E, 0, 0]) == .notAnEvent(packetIndicator: 0x02))
        #expect(why([0x04, 0x0E, 0x04, 0x01, 0x0B, 0x20, 0x00]) == .notLEMeta(eventCode: 0x0E))
        #expect(why(Array(good.dropLast(5))) == .lengthMismatch(declared: 0x2B, available: 0x2B - 5))
        #expect(
            why([0x04, 0x3E, 0x0B, 0x01, 0x00, 0x40, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0])
                == .notAdvertisingReport(subevent: 0x01))
        #expect(why([0x04, 0x3E, 0x02, 0x02, 0x00]) == .badReportCount(0))
        // Count says two reports, only one is there.
        var twoClaimed = good
        twoClaimed[4] = 2
        #expect(why(twoClaimed) == .truncatedReport(index: 1))
        // Data length above 31 in a legacy report.
        var long = good
        long[13] = 40
        #expect(why(long) == .dataTooLong(index: 0, length: 40, limit: 31))
    }

    @Test func bytesAfterTheDeclaredLengthAreIgnored() throws {
        let padded = DeviceFrames.bytes(DeviceFrames.easiBeaconHCI + "0000")
        #expect(try HCIEventParser.reports(in: padded).get().count == 1)
    }

    @Test func wellFormedEventWithoutIBeacon() {
        let event = legacyEvent([(0, "C0:FF:EE:00:00:01", DeviceFrames.eddystoneURL, -60)])
        let result = AdvertisementDecoder.decode(event, kind: .hci)
        #expect(result == .failure(.noIBeaconInReports(count: 1, first: .noManufacturerData)))
    }

    @Test func everyPrefixIsSafe() {
        let event = DeviceFrames.bytes(DeviceFrames.easiBeaconHCI)
        var ok = 0
        for n in 0...event.count {
            if case .success = HCIEventParser.reports(in: Array(event[0..<n])) { ok += 1 }
        }
        #expect(ok == 1)  // only the whole event
    }
}
