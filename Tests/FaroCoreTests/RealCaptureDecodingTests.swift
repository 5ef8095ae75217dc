import Testing

@testable import FaroCore

/// The production decode path (`AdvertisementDecoder.forEachBeacon`, what every source calls) on what users'
/// captures contain: scan responses merged into one report, zero padding, and other devices' data. Each frame's
/// source is named in `DeviceFrames`.
@Suite("Decoding real captures")
struct RealCaptureDecodingTests {
    let intelliRocks = BeaconUUID("494e5445-4c4c-495f-524f-434b535f4857")

    /// One legacy LE Advertising Report event with one report: SCAN_RSP-or-other `type`, random address
    /// CE:31:30:30:30:65 (as the H5182 sends), the given AD data and RSSI −79 (0xB1).
    func event(type: UInt8 = 0x00, data: [UInt8], lengthByte: UInt8? = nil) -> [UInt8] {
        let report: [UInt8] = [type, 0x01, 0x65, 0x30, 0x30, 0x30, 0x31, 0xCE, lengthByte ?? UInt8(data.count)]
        let params: [UInt8] = [0x02, 0x01] + report + data + [0xB1]
        return [0x04, 0x3E, UInt8(params.count)] + params
    }

    @Test func goveeScanResponseEventAsCaptured() throws {
        let sightings = try AdvertisementDecoder.decode(
            DeviceFrames.bytes(DeviceFrames.goveeH5182ScanResponseHCI), kind: .hci
        ).get()
        #expect(sightings.count == 1)
        #expect(sightings[0].beacon.uuid == intelliRocks)
        #expect(sightings[0].beacon.major == 0x5075 && sightings[0].beacon.minor == 0xF2FF)
        #expect(sightings[0].beacon.measuredPower == 12)
        #expect(sightings[0].address?.description == "CE:31:30:30:30:65")
        #expect(sightings[0].rssi == -90)
        // Its advertisement, the other half, holds Govee's data and no iBeacon.
        let adv = AdvertisementDecoder.decode(DeviceFrames.bytes(DeviceFrames.goveeH5182AdvertisementHCI), kind: .hci)
        #expect(adv == .failure(.noIBeaconInReports(count: 1, first: .notApple(companyID: 0x3030))))
    }

    @Test func advertisementAndScanResponseConcatenatedInOneReport() throws {
        // What a controller or capture tool that merges the scan response hands over: 28 + 27 = 55 data bytes in
        // one report, more than the 31 of one advertisement.
        let data = DeviceFrames.bytes(DeviceFrames.goveeH5182AdvertisingData + DeviceFrames.goveeH5182ScanResponseData)
        #expect(data.count == 55)
        let sightings = try AdvertisementDecoder.decode(event(data: data), kind: .hci).get()
        #expect(sightings.map(\.beacon.uuid) == [intelliRocks])
        #expect(sightings[0].rssi == -79 && sightings[0].address?.description == "CE:31:30:30:30:65")
        // The same bytes given as AD data, and through the pipeline's entry.
        #expect(try AdvertisementDecoder.decode(data, kind: .ad).get().map(\.beacon.minor) == [0xF2FF])
    }

    @Test func zeroPaddingBetweenAdvertisementAndScanResponse() throws {
        // A zero-padded advertisement with the iBeacon scan response glued on after the padding.
        let data = DeviceFrames.bytes(DeviceFrames.zeroPaddedAdvertisement + DeviceFrames.goveeH5182ScanResponseData)
        #expect(try AdvertisementDecoder.decode(data, kind: .ad).get().map(\.beacon.uuid) == [intelliRocks])
        #expect(try AdvertisementDecoder.decode(event(type: 0x04, data: data), kind: .hci).get().count == 1)
        // Zero padding before anything at all, and several zero bytes between structures.
        let leading = DeviceFrames.bytes("000000" + DeviceFrames.canonical)
        #expect(try AdvertisementDecoder.decode(leading, kind: .ad).get().count == 1)
        let between = DeviceFrames.bytes("020106" + "0000" + String(DeviceFrames.canonical.dropFirst(6)) + "00")
        #expect(try AdvertisementDecoder.decode(between, kind: .ad).get().map(\.beacon.minor) == [2])
    }

    @Test func paddingAloneHoldsNoIBeacon() {
        #expect(AdvertisementDecoder.decode([0, 0, 0, 0], kind: .ad) == .failure(.beacon(.noManufacturerData)))
        let padded = DeviceFrames.bytes(DeviceFrames.zeroPaddedAdvertisement)
        #expect(AdvertisementDecoder.decode(padded, kind: .ad) == .failure(.beacon(.noManufacturerData)))
    }

    @Test func otherDevicesAreNotIBeacons() {
        func why(_ hex: String) -> DecodeFailure? {
            if case .failure(let r) = AdvertisementDecoder.decode(DeviceFrames.bytes(hex), kind: .ad) { return r }
            return nil
        }
        #expect(why(DeviceFrames.teltonikaEyeEddystone) == .beacon(.noManufacturerData))
        #expect(
            why(DeviceFrames.teltonikaEyeEddystone + DeviceFrames.teltonikaEyeManufacturerData)
                == .beacon(.notApple(companyID: 0x089A)))
        #expect(why(DeviceFrames.microsoftManufacturerData) == .beacon(.notApple(companyID: 0x0006)))
        #expect(why(DeviceFrames.zeroFilledServiceData) == .beacon(.noManufacturerData))
    }

    @Test func lengthsThatOverrunTheEventAreRefused() {
        // The captured scan response with its data length one more than the event holds.
        var captured = DeviceFrames.bytes(DeviceFrames.goveeH5182ScanResponseHCI)
        captured[13] = 0x1C
        #expect(
            AdvertisementDecoder.decode(captured, kind: .hci)
                == .failure(.hci(.dataTooLong(index: 0, length: 28, limit: 27))))
        // The concatenated report claiming more than the event carries.
        let data = DeviceFrames.bytes(DeviceFrames.goveeH5182AdvertisingData + DeviceFrames.goveeH5182ScanResponseData)
        #expect(
            AdvertisementDecoder.decode(event(data: data, lengthByte: 200), kind: .hci)
                == .failure(.hci(.dataTooLong(index: 0, length: 200, limit: 55))))
        // The event cut inside the report: the parameter length says more than follows.
        let cut = Array(event(data: data).dropLast(3))
        #expect(
            AdvertisementDecoder.decode(cut, kind: .hci) == .failure(.hci(.lengthMismatch(declared: 67, available: 64)))
        )
    }

    @Test func aBrokenEventDeliversNothingFromItsEarlierReports() {
        // First report a whole iBeacon, the second's data length overruns the event: nothing is delivered.
        let beacon = DeviceFrames.bytes(DeviceFrames.goveeH5182ScanResponseData)
        let first: [UInt8] = [0x04, 0x01, 1, 2, 3, 4, 5, 6, UInt8(beacon.count)] + beacon + [0xB1]
        let second: [UInt8] = [0x00, 0x01, 1, 2, 3, 4, 5, 7, 0x30, 0x02, 0x01, 0x06, 0xB1]
        let params: [UInt8] = [0x02, 0x02] + first + second
        let bytes: [UInt8] = [0x04, 0x3E, UInt8(params.count)] + params
        var delivered = 0
        let any = bytes.withUnsafeBytes { p in
            AdvertisementDecoder.forEachBeacon(in: p, kind: .hci) { _ in delivered += 1 }
        }
        #expect(!any && delivered == 0)
        #expect(
            AdvertisementDecoder.decode(bytes, kind: .hci)
                == .failure(.hci(.dataTooLong(index: 1, length: 0x30, limit: 3))))
    }
}
