import Testing

@testable import FaroCore

@Suite("iBeacon decoding")
struct IBeaconDecoderTests {
    let airLocate = BeaconUUID("e2c56db5-dffb-48d2-b060-d0f5a71096e0")

    @Test func canonicalFrame() throws {
        let beacons = try IBeaconDecoder.decodeAdvertisingData(DeviceFrames.bytes(DeviceFrames.canonical)).get()
        #expect(beacons.count == 1)
        #expect(beacons[0].uuid == airLocate)
        #expect(beacons[0].major == 1)
        #expect(beacons[0].minor == 2)
        #expect(beacons[0].measuredPower == -59)
        #expect(beacons[0].uuid.description == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
    }

    @Test func manufacturerDataForm() throws {
        let msd = String(DeviceFrames.canonical.dropFirst(10))  // from "4c00…"
        let beacon = try IBeaconDecoder.decodeManufacturerData(DeviceFrames.bytes(msd)).get()
        #expect(beacon.major == 1 && beacon.minor == 2 && beacon.measuredPower == -59)
    }

    @Test func blueZFormFromRealDevices() throws {
        let govee = try IBeaconDecoder.decode(
            companyID: 0x004C,
            payload: DeviceFrames.bytes(DeviceFrames.goveeH5055ApplePayload)
        ).get()
        #expect(govee.uuid.bytes == Array("INTELLI_ROCKS_HW".utf8))
        #expect(govee.major == 0x5072)
        #expect(govee.minor == 0xF2FF)
        #expect(govee.measuredPower == -62)

        let phone = try IBeaconDecoder.decode(
            companyID: 76,
            payload: DeviceFrames.bytes(DeviceFrames.phoneApplePayload)
        ).get()
        #expect(phone.uuid.description == "50765cb7-d9ea-4e21-99a4-fa879613a492")
        #expect(phone.major == 0x7620 && phone.minor == 0x216E && phone.measuredPower == -50)
    }

    @Test func positiveMeasuredPowerDecodesButGivesNoDistance() throws {
        let h5108 = try IBeaconDecoder.decode(
            companyID: 76,
            payload: DeviceFrames.bytes(DeviceFrames.goveeH5108ApplePayload)
        ).get()
        #expect(h5108.measuredPower == 12)
        #expect(LogDistancePathLoss().distance(rssi: -60, measuredPower: Double(h5108.measuredPower)) == nil)
        #expect(CurveFittedPathLoss().distance(rssi: -60, measuredPower: Double(h5108.measuredPower)) == nil)
    }

    @Test func blueZFormRejectsOtherCompanies() {
        let result = IBeaconDecoder.decode(
            companyID: 0x0059, payload: DeviceFrames.bytes(DeviceFrames.goveeH5055ApplePayload))
        #expect(result == .failure(.notApple(companyID: 0x0059)))
    }

    @Test func lenientExtraBytesAfterPower() throws {
        // The easiBeacon's AD data (inside its HCI event): MSD length 0x1B, battery byte after the power byte.
        let ad = "0201041bff4c000215a7ae2eb71f004168b99ba749bac1ca6400010001bb4e"
        let beacon = try IBeaconDecoder.decodeAdvertisingData(DeviceFrames.bytes(ad)).get()[0]
        #expect(beacon.uuid.description == "a7ae2eb7-1f00-4168-b99b-a749bac1ca64")
        #expect(beacon.major == 1 && beacon.minor == 1 && beacon.measuredPower == -69)
    }

    @Test func lenientGluedScanResponse() throws {
        let bytes = DeviceFrames.bytes(DeviceFrames.wellcoreGluedScanResponse)
        #expect(bytes.count > 31)
        let beacons = try IBeaconDecoder.decodeAdvertisingData(bytes).get()
        #expect(beacons.count == 1)
        #expect(beacons[0].uuid == airLocate && beacons[0].major == 1 && beacons[0].minor == 0)
    }

    @Test func lenientTruncatedStructureAfterTheBeacon() throws {
        // A scan response cut off mid-structure after a whole iBeacon: the iBeacon still counts.
        let bytes = DeviceFrames.bytes(DeviceFrames.canonical + "0909466172")
        let beacons = try IBeaconDecoder.decodeAdvertisingData(bytes).get()
        #expect(beacons.count == 1)
    }

    @Test func lenientNoFlags() throws {
        let beacons = try IBeaconDecoder.decodeAdvertisingData(DeviceFrames.bytes(DeviceFrames.noFlags)).get()
        #expect(beacons.first?.minor == 2)
    }

    @Test func zeroPaddingIsSkipped() throws {
        let trailing = DeviceFrames.bytes(DeviceFrames.canonical + "00000000")
        #expect(try IBeaconDecoder.decodeAdvertisingData(trailing).get().count == 1)
        // A zero length byte does not end the data: the iBeacon after the padding counts.
        let leading = DeviceFrames.bytes("0000" + DeviceFrames.canonical)
        #expect(try IBeaconDecoder.decodeAdvertisingData(leading).get().count == 1)
    }

    @Test func rejectionsSayWhy() {
        func why(_ hex: String) -> IBeaconRejection? {
            if case .failure(let r) = IBeaconDecoder.decodeAdvertisingData(DeviceFrames.bytes(hex)) { return r }
            return nil
        }
        #expect(why("") == .empty)
        #expect(why(DeviceFrames.eddystoneURL) == .noManufacturerData)
        #expect(why(DeviceFrames.appleNearby) == .notIBeacon(type: 0x10))
        #expect(why("0201061aff59000215e2c56db5dffb48d2b060d0f5a71096e000010002c5") == .notApple(companyID: 0x0059))
        // Company id byte-swapped (big-endian by mistake) is not Apple either.
        #expect(why("0201061aff004c0215e2c56db5dffb48d2b060d0f5a71096e000010002c5") == .notApple(companyID: 0x4C00))
        #expect(why("0201061aff4c000216e2c56db5dffb48d2b060d0f5a71096e000010002c5") == .wrongLength(0x16))
        // The MSD structure claims 26 bytes, 25 are there: the frame lacks its power byte.
        #expect(why(String(DeviceFrames.canonical.dropLast(2))) == .truncatedPayload(available: 20))
        // A structure whose declared length runs past the end, not Apple data.
        #expect(why("0201060aff") == .truncatedStructure(offset: 3, declared: 10, available: 1))
        // Consistent MSD length, too short for an iBeacon.
        #expect(why("0201060aff4c000215e2c56db5df") == .truncatedPayload(available: 5))
        // A short Apple structure followed by a cut-off one: the Apple structure's reason is the telling one.
        #expect(why("0201060aff4c000215e2c56db5df09") == .truncatedPayload(available: 5))
    }

    @Test func rejectionMessagesNameTheByte() {
        #expect(IBeaconRejection.wrongLength(0x16).description.contains("0x16"))
        #expect(IBeaconRejection.notApple(companyID: 0x0059).description.contains("0x0059"))
        #expect(
            IBeaconRejection.truncatedStructure(offset: 3, declared: 10, available: 1).description
                .contains("byte 3"))
    }

    @Test func twoBeaconsInOneAdvertisement() throws {
        let second = "1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000070009bb"
        let beacons = try IBeaconDecoder.decodeAdvertisingData(DeviceFrames.bytes(DeviceFrames.canonical + second))
            .get()
        #expect(beacons.map(\.minor) == [2, 9])
        #expect(beacons[1].measuredPower == -69)
    }

    @Test func everyPrefixAndBitFlipIsSafe() {
        // Nothing may crash or read past the end: every prefix of a valid frame, and every single-bit change.
        let frame = DeviceFrames.bytes(DeviceFrames.wellcoreGluedScanResponse)
        var decodedPrefixes = 0
        for n in 0...frame.count {
            if case .success = IBeaconDecoder.decodeAdvertisingData(Array(frame[0..<n])) { decodedPrefixes += 1 }
        }
        // From byte 30 on, the iBeacon is whole.
        #expect(decodedPrefixes == frame.count - 30 + 1)
        var accepted = 0
        for i in 0..<frame.count {
            for bit in 0..<8 {
                var copy = frame
                copy[i] ^= 1 << bit
                if case .success = IBeaconDecoder.decodeAdvertisingData(copy) { accepted += 1 }
            }
        }
        // UUID/major/minor/power flips (21 bytes × 8) keep a valid frame, as do most flips in the later structures.
        #expect(accepted >= 21 * 8)
        #expect(accepted < frame.count * 8)
    }
}
