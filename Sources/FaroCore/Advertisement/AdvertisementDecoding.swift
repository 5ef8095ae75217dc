/// The byte forms an advertisement arrives in (the `kind` of `faro decode` and of replay lines).
public enum AdvertisementKind: String, Sendable, CaseIterable {
    /// Raw AD structures (`02 01 06 1a ff 4c 00 02 15 …`).
    case ad
    /// Manufacturer-specific data starting with the little-endian company id (`4c 00 02 15 …`).
    case msd
    /// A whole HCI LE Advertising Report event (`04 3e …`).
    case hci

    /// Guesses the form of bytes given without a kind: an HCI event starts `04 3e`, manufacturer data `4c 00`.
    public static func guess(_ bytes: [UInt8]) -> AdvertisementKind {
        if bytes.count >= 2, bytes[0] == 0x04, bytes[1] == 0x3E { return .hci }
        if bytes.count >= 4, bytes[0] == 0x4C, bytes[1] == 0x00, bytes[2] == 0x02 { return .msd }
        return .ad
    }
}

/// One iBeacon seen in an advertisement, with the radio facts the advertisement carried (HCI only).
public struct Sighting: Hashable, Sendable {
    public var beacon: IBeacon
    public var address: BluetoothAddress?
    public var rssi: Int8?
}

/// Why bytes of a given kind held no iBeacon.
public enum DecodeFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case beacon(IBeaconRejection)
    case hci(HCIEventRejection)
    /// A well-formed HCI event whose reports hold no iBeacon; the reason for the first report.
    case noIBeaconInReports(count: Int, first: IBeaconRejection)

    public var description: String {
        switch self {
        case .beacon(let why): return why.description
        case .hci(let why): return why.description
        case .noIBeaconInReports(let count, let first):
            return count == 1
                ? "the report holds no iBeacon: \(first)"
                : "none of the \(count) reports holds an iBeacon (first: \(first))"
        }
    }
}

/// Decodes any advertisement kind into sightings.
public enum AdvertisementDecoder {
    /// Every iBeacon in `bytes` of the given kind, or why there is none.
    public static func decode(_ bytes: [UInt8], kind: AdvertisementKind) -> Result<[Sighting], DecodeFailure> {
        switch kind {
        case .ad:
            return IBeaconDecoder.decodeAdvertisingData(bytes)
                .map { $0.map { Sighting(beacon: $0, address: nil, rssi: nil) } }
                .mapError { .beacon($0) }
        case .msd:
            return IBeaconDecoder.decodeManufacturerData(bytes)
                .map { [Sighting(beacon: $0, address: nil, rssi: nil)] }
                .mapError { .beacon($0) }
        case .hci:
            var sightings: [Sighting] = []
            var firstRejection: IBeaconRejection?
            var reports = 0
            let why = bytes.withUnsafeBytes { p in
                HCIEventParser.forEachReport(in: p) { _, _, address, rssi, data, _ in
                    reports += 1
                    let rejection = IBeaconDecoder.forEachIBeacon(inAdvertisingData: data) {
                        sightings.append(Sighting(beacon: $0, address: address, rssi: rssi))
                    }
                    if let rejection, firstRejection == nil { firstRejection = rejection }
                }
            }
            if let why { return .failure(.hci(why)) }
            if sightings.isEmpty {
                return .failure(.noIBeaconInReports(count: reports, first: firstRejection ?? .empty))
            }
            return .success(sightings)
        }
    }
}
