/// Why an advertisement holds no valid iBeacon. Every rejection names the byte that decided it.
public enum IBeaconRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// An AD structure declares more bytes than the advertisement has (`offset` of its length byte).
    case truncatedStructure(offset: Int, declared: Int, available: Int)
    /// Well-formed AD structures, none of them manufacturer-specific data.
    case noManufacturerData
    /// Manufacturer-specific data from another company (the id as read, little-endian).
    case notApple(companyID: UInt16)
    /// Apple data, but not an iBeacon frame (type byte other than 0x02).
    case notIBeacon(type: UInt8)
    /// An iBeacon type byte followed by a length other than 0x15.
    case wrongLength(UInt8)
    /// The frame ends before the measured-power byte (`available` bytes after the length byte, 21 needed).
    case truncatedPayload(available: Int)

    public var description: String {
        switch self {
        case .empty:
            return "empty advertisement"
        case .truncatedStructure(let offset, let declared, let available):
            return "AD structure at byte \(offset) declares \(declared) bytes but only \(available) follow"
        case .noManufacturerData:
            return "no manufacturer-specific data (AD type 0xFF) in the advertisement"
        case .notApple(let id):
            return "manufacturer data is from company 0x\(hex16(id)), not Apple (0x004C)"
        case .notIBeacon(let type):
            return "Apple manufacturer data of type 0x\(Hex.encode([type])), not an iBeacon (0x02)"
        case .wrongLength(let length):
            return "iBeacon length byte is 0x\(Hex.encode([length])), expected 0x15"
        case .truncatedPayload(let available):
            return "iBeacon frame is truncated: \(available) of 21 bytes after the length byte"
        }
    }

    /// How far into a valid frame this rejection got: when several structures are rejected, the deepest reason
    /// is the one worth telling the user.
    @usableFromInline var depth: Int {
        switch self {
        case .empty, .noManufacturerData: return 0
        case .truncatedStructure: return 1
        case .notApple: return 2
        case .notIBeacon: return 3
        case .wrongLength: return 4
        case .truncatedPayload: return 5
        }
    }
}

private func hex16(_ v: UInt16) -> String { Hex.encode([UInt8(v >> 8), UInt8(v & 0xFF)]) }

/// Decodes iBeacon frames from the forms a Linux scanner sees them in. `AdvertisementDecoder.forEachBeacon` is
/// the entry point the sources use; this type holds the rules.
///
/// Choices, strict where the format is clear and lenient where real devices deviate:
/// - Apple's company id must be `4C 00` (little-endian on air), the type `0x02` and the length byte exactly `0x15`.
/// - Lenient: bytes after the measured-power byte are ignored. Several shipping beacons (seen from Govee, Jaalee
///   and Teltonika units) send a manufacturer-data structure one or more bytes longer than the 25 an iBeacon needs.
/// - Lenient: advertising data longer than 31 bytes is accepted, because stacks that glue the scan response onto
///   the advertisement hand over up to 62 bytes (and an HCI report can hold more); every structure in it is read,
///   so an iBeacon in either half counts.
/// - Lenient: a zero length byte is a one-byte, empty structure that is skipped, not the end of the data. The Core
///   Specification calls zeros the "non-significant part" that ends the data, but real advertisements are padded
///   with zeros in the middle: an advertisement zero-padded to 31 bytes with its scan response glued on after the
///   padding (go-ble/ble#115, esphome/esphome#4162 and #4208), so stopping at the first zero loses the iBeacon.
/// - Lenient: a truncated structure *after* a complete iBeacon does not void the iBeacon (the glued-on scan response
///   is the part that gets cut). A truncated structure that would hold the iBeacon is rejected.
/// - Flags (AD type 0x01) are not required: the iBeacon identity does not depend on them.
/// - Every read is bounds-checked against the buffer; nothing is read past its end.
public enum IBeaconDecoder {
    /// Apple's Bluetooth SIG company identifier.
    public static let appleCompanyID: UInt16 = 0x004C

    /// Decodes Apple's payload as BlueZ hands it over (`Device1.ManufacturerData[0x004C]`), starting at `02 15`.
    @inlinable
    public static func decodeApplePayload(_ p: UnsafeRawBufferPointer) -> Result<IBeacon, IBeaconRejection> {
        guard p.count >= 1 else { return .failure(.truncatedPayload(available: 0)) }
        guard p[0] == 0x02 else { return .failure(.notIBeacon(type: p[0])) }
        guard p.count >= 2 else { return .failure(.truncatedPayload(available: 0)) }
        guard p[1] == 0x15 else { return .failure(.wrongLength(p[1])) }
        guard p.count >= 23 else { return .failure(.truncatedPayload(available: p.count - 2)) }
        let uuid = BeaconUUID(unchecked: p, at: 2)
        let major = UInt16(p[18]) << 8 | UInt16(p[19])
        let minor = UInt16(p[20]) << 8 | UInt16(p[21])
        return .success(IBeacon(uuid: uuid, major: major, minor: minor, measuredPower: Int8(bitPattern: p[22])))
    }

    /// Decodes manufacturer-specific data in the BlueZ D-Bus form: the company id as a separate key.
    public static func decode(companyID: UInt16, payload: [UInt8]) -> Result<IBeacon, IBeaconRejection> {
        guard companyID == appleCompanyID else { return .failure(.notApple(companyID: companyID)) }
        return payload.withUnsafeBytes { decodeApplePayload($0) }
    }

    /// Decodes manufacturer-specific data that starts with the little-endian company id (`4c 00 02 15 …`).
    @inlinable
    public static func decodeManufacturerData(_ p: UnsafeRawBufferPointer) -> Result<IBeacon, IBeaconRejection> {
        guard p.count >= 2 else { return .failure(p.isEmpty ? .empty : .truncatedPayload(available: 0)) }
        let company = UInt16(p[0]) | UInt16(p[1]) << 8
        guard company == appleCompanyID else { return .failure(.notApple(companyID: company)) }
        return decodeApplePayload(UnsafeRawBufferPointer(rebasing: p[2...]))
    }

    /// Manufacturer-specific data in an array, for callers outside hot loops.
    public static func decodeManufacturerData(_ bytes: [UInt8]) -> Result<IBeacon, IBeaconRejection> {
        bytes.withUnsafeBytes { decodeManufacturerData($0) }
    }

    /// Walks raw AD structures and calls `found` for each iBeacon in them. Returns nil when at least one was found,
    /// otherwise the most telling reason none was. Allocates nothing.
    ///
    /// Finding the beacons is `walk` (the `.ad` case of `AdvertisementDecoder.forEachBeacon`), which tracks no
    /// reason; only data holding none is walked a second time, off the hot path, to name the reason (`rejection`).
    /// Both walks accept exactly the same structures.
    @inlinable
    public static func forEachIBeacon(
        inAdvertisingData p: UnsafeRawBufferPointer, _ found: (IBeacon) -> Void
    ) -> IBeaconRejection? {
        walk(p, found) ? nil : rejection(inAdvertisingData: p)
    }

    /// Calls `found` for each iBeacon in raw AD structures; true when there was at least one. The scanning hot path:
    /// the rules of the type's notes, and no rejection reason kept.
    @inlinable @inline(__always)
    public static func walk(_ p: UnsafeRawBufferPointer, _ found: (IBeacon) -> Void) -> Bool {
        let count = p.count
        var offset = 0
        var foundAny = false
        while offset < count {
            let length = Int(p[offset])
            // Zero padding: an empty structure, skipped (see the type's notes).
            if length == 0 {
                offset &+= 1
                continue
            }
            // A structure longer than the bytes left ends the data; what came before it counts.
            if length > count &- offset &- 1 { break }
            if p[offset &+ 1] == 0xFF, let beacon = iBeaconStructure(p, offset: offset, length: length) {
                foundAny = true
                found(beacon)
            }
            offset &+= 1 &+ length
        }
        return foundAny
    }

    /// Why raw AD structures that hold no iBeacon are rejected: the most telling reason of the walk (off the hot
    /// path, so not inlined). Only meaningful for data in which `walk` finds none.
    @usableFromInline @inline(never)
    static func rejection(inAdvertisingData p: UnsafeRawBufferPointer) -> IBeaconRejection {
        if p.isEmpty { return .empty }
        var offset = 0
        var reason = IBeaconRejection.noManufacturerData
        while offset < p.count {
            let length = Int(p[offset])
            if length == 0 {
                offset += 1
                continue
            }
            let available = p.count - offset - 1
            if length > available {
                return truncatedRejection(p, offset: offset, declared: length, available: available, than: reason)
            }
            if p[offset + 1] == 0xFF {
                reason = deeperRejection(p, offset: offset, length: length, than: reason)
            }
            offset += 1 + length
        }
        return reason
    }

    /// The iBeacon in the manufacturer-data structure whose length byte is at `offset` (`length` bytes follow it,
    /// all inside `p`), or nil when it holds none. Exactly the frames `decodeManufacturerData` accepts: at least
    /// 2 + 2 + 21 data bytes starting `4c 00 02 15`, one 4-byte compare on the hot path.
    @inlinable @inline(__always)
    static func iBeaconStructure(_ p: UnsafeRawBufferPointer, offset: Int, length: Int) -> IBeacon? {
        // Data bytes after the type byte: length - 1; the iBeacon needs 25 of them.
        guard length >= 26 else { return nil }
        let data = offset &+ 2
        // `4c 00 02 15` read as one little-endian word.
        guard UInt32(littleEndian: p.loadUnaligned(fromByteOffset: data, as: UInt32.self)) == 0x1502_004C else {
            return nil
        }
        let uuid = BeaconUUID(unchecked: p, at: data &+ 4)
        let major = UInt16(bigEndian: p.loadUnaligned(fromByteOffset: data &+ 20, as: UInt16.self))
        let minor = UInt16(bigEndian: p.loadUnaligned(fromByteOffset: data &+ 22, as: UInt16.self))
        return IBeacon(uuid: uuid, major: major, minor: minor, measuredPower: Int8(bitPattern: p[data &+ 24]))
    }

    /// Why the manufacturer-data structure at `offset` holds no iBeacon, if that is deeper than `reason`
    /// (off the hot path, so not inlined).
    @usableFromInline @inline(never)
    static func deeperRejection(
        _ p: UnsafeRawBufferPointer, offset: Int, length: Int, than reason: IBeaconRejection
    ) -> IBeaconRejection {
        let body = UnsafeRawBufferPointer(rebasing: p[(offset + 2)..<(offset + 1 + length)])
        if case .failure(let why) = decodeManufacturerData(body), why.depth > reason.depth { return why }
        return reason
    }

    /// The rejection for a structure at `offset` that declares more bytes than follow it, with no iBeacon before
    /// it: the cut itself, or how far an Apple manufacturer-data frame got if that says more.
    @usableFromInline @inline(never)
    static func truncatedRejection(
        _ p: UnsafeRawBufferPointer, offset: Int, declared: Int, available: Int, than earlier: IBeaconRejection
    ) -> IBeaconRejection {
        var best = IBeaconRejection.truncatedStructure(offset: offset, declared: declared, available: available)
        // If the cut structure is Apple MSD, say how far the frame got instead.
        if available >= 1, p[offset + 1] == 0xFF {
            let body = UnsafeRawBufferPointer(rebasing: p[(offset + 2)...])
            if case .failure(let why) = decodeManufacturerData(body), why.depth > best.depth { best = why }
        }
        // An earlier Apple structure that got further into a frame says more than the cut.
        return earlier.depth > best.depth ? earlier : best
    }

    /// Every iBeacon in raw AD structures (usually one).
    public static func decodeAdvertisingData(_ bytes: [UInt8]) -> Result<[IBeacon], IBeaconRejection> {
        var beacons: [IBeacon] = []
        let why = bytes.withUnsafeBytes { forEachIBeacon(inAdvertisingData: $0) { beacons.append($0) } }
        if let why { return .failure(why) }
        return .success(beacons)
    }
}
