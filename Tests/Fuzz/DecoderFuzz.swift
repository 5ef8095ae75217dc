// libFuzzer entry point for the production decode path, `AdvertisementDecoder.forEachBeacon`, the one function
// every source calls. Built by scripts/fuzz.sh together with Sources/FaroCore/Advertisement/*.swift into one module
// (`swiftc -sanitize=fuzzer,address`).
//
// The first input byte picks the form (0 raw AD, 1 manufacturer data, 2 HCI event, 3 BlueZ's Apple payload), the
// rest is the advertisement. Besides "no crash, no out-of-bounds read" (AddressSanitizer), it checks properties
// that must hold for every input, most of them that the forms agree with each other: the same AD data wrapped in an
// HCI event, or manufacturer data wrapped in an AD structure, must give the same iBeacons. A violation traps, and
// libFuzzer saves the input as a crash artifact. Tests/FaroCoreTests/FuzzRegressionTests.swift checks the same.

@_cdecl("LLVMFuzzerTestOneInput")
public func faroFuzzDecoders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0] % 4
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch selector {
    case 0: checkAdvertisingData(bytes)
    case 1: checkManufacturerData(bytes)
    case 2: checkEvent(bytes)
    default: checkApplePayload(bytes)
    }
    return 0
}

/// The beacons `forEachBeacon` finds in `bytes` of `kind`, and why there are none (`rejection(of:kind:)`, which
/// must name a reason exactly when nothing was found).
func decodedBeacons(_ bytes: [UInt8], _ kind: AdvertisementKind) -> ([DecodedBeacon], DecodeFailure?) {
    var found: [DecodedBeacon] = []
    let (any, why) = bytes.withUnsafeBytes { p in
        (
            AdvertisementDecoder.forEachBeacon(in: p, kind: kind) { found.append($0) },
            AdvertisementDecoder.rejection(of: p, kind: kind)
        )
    }
    precondition(any == !found.isEmpty, "\(kind): found without sightings, or sightings without found")
    precondition((why == nil) == any, "\(kind): the reason disagrees with the hot path")
    return (found, why)
}

/// Whether `needle` occurs in `haystack` (an iBeacon's bytes must come from the input).
func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
}

func frameBytes(_ b: IBeacon) -> [UInt8] {
    [0x4C, 0x00, 0x02, 0x15] + b.uuid.bytes + [UInt8(b.major >> 8), UInt8(b.major & 0xFF)]
        + [UInt8(b.minor >> 8), UInt8(b.minor & 0xFF), UInt8(bitPattern: b.measuredPower)]
}

func checkAdvertisingData(_ bytes: [UInt8]) {
    let (found, why) = decodedBeacons(bytes, .ad)
    for s in found {
        precondition(contains(bytes, frameBytes(s.beacon)), "an iBeacon whose bytes are not in the input")
        precondition(s.address == nil && s.rssi == nil, "AD data has no address or RSSI")
    }
    if !found.isEmpty { precondition(bytes.count >= 27, "an iBeacon needs at least 27 bytes of AD data") }
    // The same data as the one report of an HCI event (up to what an event holds) gives the same beacons.
    guard bytes.count <= 243 else { return }
    let report: [UInt8] = [0x00, 0x01, 1, 2, 3, 4, 5, 6, UInt8(bytes.count)] + bytes + [0xC4]
    let event: [UInt8] = [0x04, 0x3E, UInt8(report.count + 2), 0x02, 0x01] + report
    let (inEvent, eventWhy) = decodedBeacons(event, .hci)
    precondition(inEvent.map(\.beacon) == found.map(\.beacon), "the HCI form disagrees with the AD form")
    precondition(inEvent.allSatisfy { $0.rssi == -60 && $0.address != nil }, "HCI sighting lost its radio facts")
    if case .beacon(let a)? = why {
        precondition(eventWhy == .noIBeaconInReports(count: 1, first: a), "HCI rejection disagrees with AD")
    }
}

func checkManufacturerData(_ bytes: [UInt8]) {
    let (found, _) = decodedBeacons(bytes, .msd)
    if let beacon = found.first?.beacon {
        precondition(found.count == 1, "one manufacturer-data block holds one iBeacon")
        precondition(bytes.count >= 25 && Array(bytes[0..<25]) == frameBytes(beacon), "iBeacon bytes moved")
    }
    // The same block as one AD structure gives the same beacon.
    guard bytes.count <= 254 else { return }
    let (asStructure, _) = decodedBeacons([UInt8(bytes.count + 1), 0xFF] + bytes, .ad)
    precondition(asStructure.map(\.beacon) == found.map(\.beacon), "the AD form disagrees with the MSD form")
}

func checkEvent(_ bytes: [UInt8]) {
    let (found, why) = decodedBeacons(bytes, .hci)
    // Exactly the beacons of every report's data read as AD structures, in order, or nothing from a broken event.
    switch HCIEventParser.reports(in: bytes) {
    case .failure(let rejection):
        precondition(found.isEmpty && why == .hci(rejection), "a broken event delivered sightings")
    case .success(let reports):
        var expected: [IBeacon] = []
        for r in reports { expected += decodedBeacons(r.data, .ad).0.map(\.beacon) }
        precondition(found.map(\.beacon) == expected, "the event's beacons differ from its reports' beacons")
        precondition(found.allSatisfy { $0.address != nil }, "HCI sighting without address")
    }
}

func checkApplePayload(_ bytes: [UInt8]) {
    let (found, _) = decodedBeacons([0x4C, 0x00] + bytes, .msd)
    if let beacon = found.first?.beacon {
        precondition(Array(bytes[0..<2]) == [0x02, 0x15], "accepted a non-iBeacon payload")
        precondition(Int(beacon.measuredPower) == Int(Int8(bitPattern: bytes[22])), "power byte moved")
    }
}
