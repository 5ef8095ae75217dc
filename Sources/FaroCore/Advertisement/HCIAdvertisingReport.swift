/// One advertising report from an HCI LE Advertising Report event (legacy 0x02 or extended 0x0D).
public struct AdvertisingReport: Hashable, Sendable {
    /// ADV_IND 0 … SCAN_RSP 4 for legacy reports; the 16-bit properties field for extended ones.
    public var eventType: UInt16
    /// 0 public, 1 random, 2/3 resolved identities.
    public var addressType: UInt8
    public var address: BluetoothAddress
    /// Received signal strength in dBm; nil where the controller reported 127 ("not available").
    public var rssi: Int8?
    /// The raw AD structures of this report.
    public var data: [UInt8]
    /// True for reports from the extended event (subevent 0x0D).
    public var isExtended: Bool
}

/// Why bytes are not a usable LE Advertising Report event.
public enum HCIEventRejection: Error, Equatable, Sendable, CustomStringConvertible {
    case tooShort(Int)
    case notAnEvent(packetIndicator: UInt8)
    case notLEMeta(eventCode: UInt8)
    case lengthMismatch(declared: Int, available: Int)
    case notAdvertisingReport(subevent: UInt8)
    case badReportCount(Int)
    case truncatedReport(index: Int)
    /// A report's Length_Data is more than the event has room for (`limit` data bytes left for it).
    case dataTooLong(index: Int, length: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooShort(let n): return "HCI event too short (\(n) bytes)"
        case .notAnEvent(let b): return "packet indicator 0x\(Hex.encode([b])) is not an HCI event (0x04)"
        case .notLEMeta(let c): return "HCI event code 0x\(Hex.encode([c])) is not an LE meta event (0x3e)"
        case .lengthMismatch(let d, let a): return "event parameter length is \(d) but \(a) bytes follow"
        case .notAdvertisingReport(let s):
            return "LE subevent 0x\(Hex.encode([s])) is not an advertising report (0x02 or 0x0d)"
        case .badReportCount(let n): return "report count \(n) is out of range (1–25)"
        case .truncatedReport(let i): return "report \(i + 1) is cut off"
        case .dataTooLong(let i, let n, let limit):
            return "report \(i + 1) claims \(n) data bytes but the event has room for \(limit)"
        }
    }
}

/// Parses HCI LE Advertising Report events as a raw HCI socket delivers them.
///
/// Choices: the `04` packet indicator is optional (a raw socket read has it, btmon/hcidump dumps often do not);
/// bytes after the declared parameter length are ignored (some capture tools pad), fewer are an error. Reports
/// inside one event are read one after another, the layout BlueZ's own tools read.
///
/// Lenient: a legacy report's Length_Data may exceed the 31 bytes of one advertisement, up to what the event
/// holds. Controllers and capture tools that merge the scan response into the advertising report hand over both
/// concatenated in one report (up to 62 bytes, often with the advertisement's zero padding in between); the data
/// is read as one run of AD structures. A length that overruns the event is still refused (`dataTooLong`), and so
/// is a report whose header is cut off (`truncatedReport`). Extended reports carry at most 229 bytes, which is
/// also exactly what fits one event.
public enum HCIEventParser {
    public static let leMetaEvent: UInt8 = 0x3E
    public static let legacyReport: UInt8 = 0x02
    public static let extendedReport: UInt8 = 0x0D

    /// Calls `body` for every report in the event, with the report's AD bytes as a view into `p`. Allocates nothing.
    /// Always inlined, so that `body` (the decoder's per-report work) is compiled into the walk.
    @inlinable @inline(__always)
    public static func forEachReport(
        in p: UnsafeRawBufferPointer,
        _ body: (
            _ eventType: UInt16, _ addressType: UInt8, _ address: BluetoothAddress, _ rssi: Int8?,
            _ data: UnsafeRawBufferPointer, _ extended: Bool
        ) -> Void
    ) -> HCIEventRejection? {
        var o = 0
        guard p.count >= 2 else { return .tooShort(p.count) }
        if p[0] == 0x04 { o = 1 } else if p[0] != leMetaEvent { return .notAnEvent(packetIndicator: p[0]) }
        guard p.count >= o + 4 else { return .tooShort(p.count) }
        guard p[o] == leMetaEvent else { return .notLEMeta(eventCode: p[o]) }
        let declared = Int(p[o + 1])
        let available = p.count - o - 2
        guard declared <= available else { return .lengthMismatch(declared: declared, available: available) }
        let end = o + 2 + declared
        let subevent = p[o + 2]
        guard subevent == legacyReport || subevent == extendedReport else {
            return .notAdvertisingReport(subevent: subevent)
        }
        guard end >= o + 4 else { return .lengthMismatch(declared: declared, available: available) }
        let count = Int(p[o + 3])
        guard (1...25).contains(count) else { return .badReportCount(count) }
        var r = o + 4
        let extended = subevent == extendedReport
        for index in 0..<count {
            if extended {
                // properties(2) addrType addr(6) phy1 phy2 sid tx rssi interval(2) dirType dirAddr(6) len = 24
                guard r + 24 <= end else { return .truncatedReport(index: index) }
                let eventType = UInt16(p[r]) | UInt16(p[r + 1]) << 8
                let addressType = p[r + 2]
                let address = BluetoothAddress(littleEndian: p, at: r + 3)
                let rawRSSI = Int8(bitPattern: p[r + 13])
                let length = Int(p[r + 23])
                let room = end - (r + 24)
                guard length <= room else { return .dataTooLong(index: index, length: length, limit: room) }
                let data = UnsafeRawBufferPointer(rebasing: p[(r + 24)..<(r + 24 + length)])
                body(eventType, addressType, address, rawRSSI == 127 ? nil : rawRSSI, data, true)
                r += 24 + length
            } else {
                // type addrType addr(6) len data rssi: 10 bytes besides the data
                guard r + 10 <= end else { return .truncatedReport(index: index) }
                let eventType = UInt16(p[r])
                let addressType = p[r + 1]
                let address = BluetoothAddress(littleEndian: p, at: r + 2)
                let length = Int(p[r + 8])
                // Room for data: what is left of the event after this header, less the RSSI byte that follows it.
                // Concatenated advertising and scan response data (more than 31 bytes) is accepted up to there.
                let room = end - (r + 10)
                guard length <= room else { return .dataTooLong(index: index, length: length, limit: room) }
                let data = UnsafeRawBufferPointer(rebasing: p[(r + 9)..<(r + 9 + length)])
                let rawRSSI = Int8(bitPattern: p[r + 9 + length])
                body(eventType, addressType, address, rawRSSI == 127 ? nil : rawRSSI, data, false)
                r += 10 + length
            }
        }
        return nil
    }

    /// Why the bytes are not a well-formed LE Advertising Report event, or nil when they are: the same checks as
    /// `forEachReport`, delivering nothing.
    @inlinable
    public static func check(_ p: UnsafeRawBufferPointer) -> HCIEventRejection? {
        forEachReport(in: p) { _, _, _, _, _, _ in }
    }

    /// All reports of one event, copied out.
    public static func reports(in bytes: [UInt8]) -> Result<[AdvertisingReport], HCIEventRejection> {
        var out: [AdvertisingReport] = []
        let why = bytes.withUnsafeBytes { p in
            forEachReport(in: p) { type, addressType, address, rssi, data, extended in
                out.append(
                    AdvertisingReport(
                        eventType: type, addressType: addressType, address: address, rssi: rssi,
                        data: Array(data), isExtended: extended))
            }
        }
        if let why { return .failure(why) }
        return .success(out)
    }
}
