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

    @inlinable
    public init(beacon: IBeacon, address: BluetoothAddress?, rssi: Int8?) {
        self.beacon = beacon
        self.address = address
        self.rssi = rssi
    }
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

/// The one production decode path: every source (raw HCI, BlueZ, replay and the demo), `BeaconPipeline`,
/// `faro decode` and `faro bench decode` read advertisements through `forEachSighting`, so what is measured and
/// tested is what the scanners run.
///
/// What it accepts is `IBeaconDecoder`'s rules (AD structures, manufacturer data) and `HCIEventParser`'s (events);
/// the C reference of `make bench` (`bench/c/ibeacon_decode.c`) accepts exactly the same advertisements.
public enum AdvertisementDecoder {
    /// Calls `found` for every iBeacon in one advertisement of the given kind, in the order they appear. Returns nil
    /// when at least one was found, otherwise why there was none. Allocates nothing; `bytes` is only read inside
    /// its bounds.
    ///
    /// - `.ad`: every manufacturer-data structure of the raw AD structures (see `IBeaconDecoder.forEachIBeacon`).
    /// - `.msd`: one manufacturer-specific data block starting with the company id (BlueZ's `ManufacturerData`
    ///   entry with its key put in front).
    /// - `.hci`: every report of an LE Advertising Report event, each with its address and RSSI (nil where the
    ///   controller said 127, "not available"). An event that is not an advertising report, or whose lengths
    ///   overrun it, fails with `.hci` even if earlier reports held iBeacons: nothing of a broken event is used.
    @inlinable
    public static func forEachSighting(
        in bytes: UnsafeRawBufferPointer, kind: AdvertisementKind, _ found: (Sighting) -> Void
    ) -> DecodeFailure? {
        switch kind {
        case .ad:
            let why = IBeaconDecoder.forEachIBeacon(inAdvertisingData: bytes) {
                found(Sighting(beacon: $0, address: nil, rssi: nil))
            }
            return why.map { .beacon($0) }
        case .msd:
            switch IBeaconDecoder.decodeManufacturerData(bytes) {
            case .success(let beacon):
                found(Sighting(beacon: beacon, address: nil, rssi: nil))
                return nil
            case .failure(let why):
                return .beacon(why)
            }
        case .hci:
            return forEachSighting(inEvent: bytes, found)
        }
    }

    /// The `.hci` case: a broken event delivers nothing, so the reports are checked before any is decoded.
    @inlinable
    static func forEachSighting(inEvent bytes: UnsafeRawBufferPointer, _ found: (Sighting) -> Void) -> DecodeFailure? {
        if let why = HCIEventParser.check(bytes) { return .hci(why) }
        var reports = 0
        var delivered = false
        var firstRejection: IBeaconRejection?
        _ = HCIEventParser.forEachReport(in: bytes) { _, _, address, rssi, data, _ in
            reports &+= 1
            let rejection = IBeaconDecoder.forEachIBeacon(inAdvertisingData: data) {
                delivered = true
                found(Sighting(beacon: $0, address: address, rssi: rssi))
            }
            if let rejection, firstRejection == nil { firstRejection = rejection }
        }
        if delivered { return nil }
        return .noIBeaconInReports(count: reports, first: firstRejection ?? .empty)
    }

    /// Every iBeacon in `bytes` of the given kind, or why there is none: `forEachSighting` collected into an array,
    /// for callers outside hot loops (`faro decode`, tests).
    public static func decode(_ bytes: [UInt8], kind: AdvertisementKind) -> Result<[Sighting], DecodeFailure> {
        var sightings: [Sighting] = []
        let why = bytes.withUnsafeBytes { forEachSighting(in: $0, kind: kind) { sightings.append($0) } }
        if let why { return .failure(why) }
        return .success(sightings)
    }
}
