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
/// `faro decode` and `faro-bench decode` read advertisements through `forEachBeacon`, so what is measured and
/// tested is what the scanners run.
///
/// What it accepts is `IBeaconDecoder`'s rules (AD structures, manufacturer data) and `HCIEventParser`'s (events);
/// the C reference of `make bench` (`bench/c/ibeacon_decode.c`) accepts exactly the same advertisements.
public enum AdvertisementDecoder {
    /// Calls `found` for every iBeacon in one advertisement of the given kind, in the order they appear; returns
    /// whether there was at least one. Allocates nothing; `bytes` is only read inside its bounds. It names no
    /// reason for advertisements without an iBeacon (most of what a radio hears: other devices), which the sources
    /// drop; `rejection(of:kind:)` says why, for those that ask.
    ///
    /// - `.ad`: every manufacturer-data structure of the raw AD structures (see `IBeaconDecoder.walk`).
    /// - `.msd`: one manufacturer-specific data block starting with the company id (BlueZ's `ManufacturerData`
    ///   entry with its key put in front).
    /// - `.hci`: every report of an LE Advertising Report event, each with its address and RSSI (nil where the
    ///   controller said 127, "not available"). An event that is not an advertising report, or whose lengths
    ///   overrun it, delivers nothing, even where earlier reports held iBeacons: nothing of a broken event is used.
    ///
    /// Always inlined: the caller's `found` is then compiled into the walk.
    @inlinable @inline(__always)
    public static func forEachBeacon(
        in bytes: UnsafeRawBufferPointer, kind: AdvertisementKind, _ found: (DecodedBeacon) -> Void
    ) -> Bool {
        switch kind {
        case .ad:
            return IBeaconDecoder.walk(bytes) { found(DecodedBeacon(beacon: $0, address: nil, rssi: nil)) }
        case .msd:
            guard case .success(let beacon) = IBeaconDecoder.decodeManufacturerData(bytes) else { return false }
            found(DecodedBeacon(beacon: beacon, address: nil, rssi: nil))
            return true
        case .hci:
            // A broken event delivers nothing, so the whole event is checked before any report is decoded.
            if HCIEventParser.check(bytes) != nil { return false }
            var delivered = false
            _ = HCIEventParser.forEachReport(in: bytes) { _, _, address, rssi, data, _ in
                if IBeaconDecoder.walk(data, { found(DecodedBeacon(beacon: $0, address: address, rssi: rssi)) }) {
                    delivered = true
                }
            }
            return delivered
        }
    }

    /// Why `forEachBeacon` finds no iBeacon in `bytes` of the given kind, or nil when it finds one: the most
    /// telling reason, naming the byte that decided it (off the hot path: `faro decode`, tests, counters).
    public static func rejection(of bytes: UnsafeRawBufferPointer, kind: AdvertisementKind) -> DecodeFailure? {
        switch kind {
        case .ad:
            return IBeaconDecoder.forEachIBeacon(inAdvertisingData: bytes) { _ in }.map { .beacon($0) }
        case .msd:
            if case .failure(let why) = IBeaconDecoder.decodeManufacturerData(bytes) { return .beacon(why) }
            return nil
        case .hci:
            if let why = HCIEventParser.check(bytes) { return .hci(why) }
            var reports = 0
            var first: IBeaconRejection?
            var delivered = false
            _ = HCIEventParser.forEachReport(in: bytes) { _, _, _, _, data, _ in
                reports += 1
                if let why = IBeaconDecoder.forEachIBeacon(inAdvertisingData: data, { _ in }) {
                    if first == nil { first = why }
                } else {
                    delivered = true
                }
            }
            return delivered ? nil : .noIBeaconInReports(count: reports, first: first ?? .empty)
        }
    }

    /// Every iBeacon in `bytes` of the given kind, or why there is none: `forEachBeacon` collected into an array,
    /// and `rejection(of:kind:)` when it finds nothing, for callers outside hot loops (`faro decode`, tests).
    public static func decode(_ bytes: [UInt8], kind: AdvertisementKind) -> Result<[DecodedBeacon], DecodeFailure> {
        var sightings: [DecodedBeacon] = []
        return bytes.withUnsafeBytes { p in
            if forEachBeacon(in: p, kind: kind, { sightings.append($0) }) { return .success(sightings) }
            // `rejection` is nil only where a beacon was found, which `forEachBeacon` just said there is not.
            return .failure(rejection(of: p, kind: kind) ?? .beacon(.empty))
        }
    }
}
