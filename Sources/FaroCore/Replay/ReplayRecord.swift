import FoundationEssentials

/// One line of a replay file (JSON Lines): an advertisement at a time on the recording's clock.
/// `{"t": 12.345, "address": "C0:FF:EE:00:00:01", "rssi": -67, "kind": "msd", "data": "4c000215…c5"}`
public struct ReplayRecord: Sendable, Equatable {
    public var time: Double
    public var address: BluetoothAddress
    public var rssi: Int8
    public var kind: AdvertisementKind
    public var data: [UInt8]

    public init(time: Double, address: BluetoothAddress, rssi: Int8, kind: AdvertisementKind, data: [UInt8]) {
        self.time = time
        self.address = address
        self.rssi = rssi
        self.kind = kind
        self.data = data
    }

    /// The line as it is written in a replay file (keys in a fixed order).
    public var jsonLine: String {
        let t = (time * 1000).rounded() / 1000
        return "{\"t\": \(t), \"address\": \"\(address)\", \"rssi\": \(rssi), \"kind\": \"\(kind.rawValue)\", "
            + "\"data\": \"\(Hex.encode(data))\"}"
    }
}

/// Why a replay line was refused; `line` counts from 1.
public struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
}

/// Reads replay files.
public enum ReplayReader {
    /// Parses one line. Blank lines and lines starting with `#` are not records (nil).
    public static func parse(line text: Substring, number: Int) throws(ReplayError) -> ReplayRecord? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        guard let object = try? JSONValue.parse(trimmed), object.objectMembers != nil else {
            throw ReplayError(line: number, reason: "not a JSON object")
        }
        return try record(object, number: number)
    }

    /// Parses a whole file's text; times must not go backwards. Lines end at LF (a CR before it is dropped).
    /// The bytes are read directly: a recording has thousands of lines, read on the window's main thread before
    /// its first frame. A line this cannot read as it is (white space other than ASCII's around it…) is read
    /// again by `parse(line:number:)`, which says why it is refused. A beacon repeats one advertisement over and
    /// over, so records with the same bytes share one copy of them (the demo walk's 2,851 lines hold 9).
    public static func parse(text: String) throws(ReplayError) -> [ReplayRecord] {
        let bytes = Array(text.utf8)
        var records: [ReplayRecord] = []
        var advertisements: Set<[UInt8]> = []
        var number = 0
        var last = -Double.infinity
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            number += 1
            if var record = try parse(line: bytes[start..<end], number: number) {
                record.data = advertisements.insert(record.data).memberAfterInsert
                if record.time < last {
                    throw ReplayError(line: number, reason: "time \(record.time) goes back before \(last)")
                }
                last = record.time
                records.append(record)
            }
            start = end + 1
        }
        return records
    }

    /// One line's bytes, read as `parse(line:number:)` reads its text.
    static func parse(line bytes: ArraySlice<UInt8>, number: Int) throws(ReplayError) -> ReplayRecord? {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
        var lo = bytes.startIndex
        var hi = bytes.endIndex
        while lo < hi, isSpace(bytes[lo]) { lo += 1 }
        while hi > lo, isSpace(bytes[hi - 1]) { hi -= 1 }
        if lo == hi || bytes[lo] == UInt8(ascii: "#") { return nil }
        guard let object = try? JSONValue.parse(bytes: Array(bytes[lo..<hi])), object.objectMembers != nil else {
            return try parse(line: Substring(String(decoding: bytes[lo..<hi], as: UTF8.self)), number: number)
        }
        return try record(object, number: number)
    }

    /// The record a line's JSON object describes.
    private static func record(_ object: JSONValue, number: Int) throws(ReplayError) -> ReplayRecord {
        func fail(_ reason: String) -> ReplayError { ReplayError(line: number, reason: reason) }
        guard let t = object["t"]?.doubleValue, t.isFinite, t >= 0 else {
            throw fail("\"t\" must be a non-negative number of seconds")
        }
        guard let addressText = object["address"]?.stringValue, let address = BluetoothAddress(addressText) else {
            throw fail("\"address\" must look like C0:FF:EE:00:00:01")
        }
        guard let rssiNumber = object["rssi"]?.doubleValue, let rssi = Int8(exactly: rssiNumber) else {
            throw fail("\"rssi\" must be a whole number of dBm from -128 to 127")
        }
        let kindText = object["kind"]?.stringValue ?? "ad"
        guard let kind = AdvertisementKind(rawValue: kindText) else {
            throw fail("\"kind\" must be ad, msd or hci, not \"\(kindText)\"")
        }
        guard let hex = object["data"]?.stringValue else { throw fail("\"data\" must be a hex string") }
        let data: [UInt8]
        do { data = try Hex.decode(hex) } catch { throw fail("\"data\": \(error)") }
        return ReplayRecord(time: t, address: address, rssi: rssi, kind: kind, data: data)
    }
}
