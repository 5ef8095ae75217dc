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
        func fail(_ reason: String) -> ReplayError { ReplayError(line: number, reason: reason) }
        guard let object = try? JSONValue.parse(trimmed), object.objectMembers != nil else {
            throw fail("not a JSON object")
        }
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

    /// Parses a whole file's text; times must not go backwards.
    public static func parse(text: String) throws(ReplayError) -> [ReplayRecord] {
        var records: [ReplayRecord] = []
        var number = 0
        var last = -Double.infinity
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            guard let record = try parse(line: line, number: number) else { continue }
            if record.time < last {
                throw ReplayError(line: number, reason: "time \(record.time) goes back before \(last)")
            }
            last = record.time
            records.append(record)
        }
        return records
    }
}
