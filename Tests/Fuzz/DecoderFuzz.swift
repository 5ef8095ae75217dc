// libFuzzer entry point for the advertisement decoders. Built by scripts/fuzz.sh together with
// Sources/FaroCore/Advertisement/*.swift into one module (`swiftc -sanitize=fuzzer,address`).
//
// The first input byte picks the form (0 raw AD, 1 manufacturer data, 2 HCI event, 3 BlueZ payload), the rest is
// the advertisement. Besides "no crash, no out-of-bounds read" (AddressSanitizer), it checks properties that must
// hold for every input; a violation traps, and libFuzzer saves the input as a crash artifact.

@_cdecl("LLVMFuzzerTestOneInput")
public func faroFuzzDecoders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0] % 4
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch selector {
    case 0:
        let all = IBeaconDecoder.decodeAdvertisingData(bytes)
        let first = bytes.withUnsafeBytes { IBeaconDecoder.firstIBeacon(inAdvertisingData: $0) }
        // The fast path and the full walk must agree on the first iBeacon and on the reason for none.
        switch (all, first) {
        case (.success(let beacons), .success(let beacon)):
            precondition(beacons.first == beacon, "firstIBeacon disagrees with decodeAdvertisingData")
        case (.failure(let a), .failure(let b)):
            precondition(a == b, "rejection reasons disagree: \(a) vs \(b)")
        default:
            preconditionFailure("firstIBeacon and decodeAdvertisingData disagree on validity")
        }
        if case .success(let beacons) = all {
            precondition(!beacons.isEmpty, "success without a beacon")
            precondition(bytes.count >= 27, "an iBeacon needs at least 27 bytes of AD data")
        }
    case 1:
        if case .success(let beacon) = IBeaconDecoder.decodeManufacturerData(bytes) {
            precondition(bytes.count >= 25, "an iBeacon MSD needs 25 bytes")
            precondition(beacon.uuid.bytes == Array(bytes[4..<20]), "UUID bytes moved")
        }
    case 2:
        let decoded = AdvertisementDecoder.decode(bytes, kind: .hci)
        if case .success(let sightings) = decoded {
            precondition(
                !sightings.isEmpty && sightings.allSatisfy { $0.address != nil }, "HCI sighting without address")
        }
        _ = HCIEventParser.reports(in: bytes)
    default:
        if case .success(let beacon) = IBeaconDecoder.decode(companyID: 0x004C, payload: bytes) {
            precondition(Array(bytes[0..<2]) == [0x02, 0x15], "accepted a non-iBeacon payload")
            precondition(Int(beacon.measuredPower) == Int(Int8(bitPattern: bytes[22])), "power byte moved")
        }
    }
    return 0
}
