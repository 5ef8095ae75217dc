/// One reading of one beacon as the session kept it: when, from which address, how strong, and what the filter and
/// the distance model made of it right after (docs/beacon-page.md).
public struct BeaconReading: Sendable, Equatable {
    /// Seconds on the source's clock.
    public var time: Double
    public var address: BluetoothAddress
    /// The raw RSSI, dBm.
    public var rssi: Int8
    /// The filter's output after this reading, dBm.
    public var filtered: Double
    /// The estimated distance after this reading, metres; nil when unknown.
    public var distance: Double?

    public init(time: Double, address: BluetoothAddress, rssi: Int8, filtered: Double, distance: Double?) {
        self.time = time
        self.address = address
        self.rssi = rssi
        self.filtered = filtered
        self.distance = distance
    }

    public var proximity: Proximity { Proximity(distance: distance) }
}

/// How much history the session keeps per beacon: readings younger than `seconds`, and at most `maximumReadings`
/// of them (a beacon heard ten times a second keeps its latest `maximumReadings`).
public struct ReadingHistoryLimits: Sendable, Equatable {
    public var seconds: Double
    public var maximumReadings: Int

    public init(seconds: Double = 600, maximumReadings: Int = 1200) {
        self.seconds = seconds
        self.maximumReadings = max(1, maximumReadings)
    }
}

/// A beacon's recent readings in a ring, oldest first, in compact form: 24 bytes a reading (time, filtered RSSI and
/// distance as floats, raw RSSI, and the address as an index into the beacon's few addresses), so 1,000 beacons with
/// 10 minutes at 1 Hz hold about 14 MB. Appending is constant time; old readings are dropped from the front.
public struct ReadingHistory: Sendable, Equatable {
    @usableFromInline
    struct Entry: Sendable, Equatable {
        @usableFromInline var time: Double
        @usableFromInline var filtered: Float
        @usableFromInline var distance: Float
        @usableFromInline var rssi: Int8
        @usableFromInline var address: UInt8

        @inlinable
        init(time: Double, filtered: Float, distance: Float, rssi: Int8, address: UInt8) {
            self.time = time
            self.filtered = filtered
            self.distance = distance
            self.rssi = rssi
            self.address = address
        }
    }

    /// A ring: `storage` grows to `limits.maximumReadings`; the kept readings are `held` entries from `start`.
    @usableFromInline var storage: [Entry] = []
    @usableFromInline var start = 0
    @usableFromInline var held = 0
    /// The addresses the readings came from (a beacon rotating addresses has a few; past 256 the last index is
    /// reused).
    @usableFromInline var addresses: [BluetoothAddress] = []
    public let limits: ReadingHistoryLimits

    public init(limits: ReadingHistoryLimits) { self.limits = limits }

    /// How many readings are kept.
    public var count: Int { held }

    /// Adds a reading; drops what is older than the limits allow.
    @inlinable
    public mutating func append(_ reading: BeaconReading) {
        var slot: UInt8
        if let last = addresses.last, last == reading.address {
            slot = UInt8(addresses.count - 1)
        } else if let i = addresses.firstIndex(of: reading.address) {
            slot = UInt8(i)
        } else if addresses.count < 256 {
            addresses.append(reading.address)
            slot = UInt8(addresses.count - 1)
        } else {
            slot = 255
            addresses[255] = reading.address
        }
        let entry = Entry(
            time: reading.time, filtered: Float(reading.filtered), distance: reading.distance.map(Float.init) ?? .nan,
            rssi: reading.rssi, address: slot)
        trim(before: reading.time - limits.seconds)
        if held < storage.count {
            storage[(start + held) % storage.count] = entry
            held += 1
        } else if storage.count < limits.maximumReadings {
            // Full but still growing: unroll the ring first so the new entry goes at its end.
            if start != 0 {
                storage = Array(storage[start...]) + storage[..<start]
                start = 0
            }
            // Grow by a minute at 1 Hz at a time, not by doubling: a thousand beacons' rings stay near their size.
            if storage.count == storage.capacity {
                storage.reserveCapacity(min(limits.maximumReadings, storage.count + 64))
            }
            storage.append(entry)
            held += 1
        } else {
            storage[start] = entry
            start = (start + 1) % storage.count
        }
    }

    /// Drops readings older than `time`.
    @inlinable
    public mutating func trim(before time: Double) {
        while held > 0, storage[start].time < time {
            start = (start + 1) % storage.count
            held -= 1
        }
        if held == 0 { start = 0 }
    }

    @usableFromInline var orderedEntries: [Entry] {
        (0..<held).map { storage[(start + $0) % storage.count] }
    }

    /// The readings, oldest first.
    public var readings: [BeaconReading] {
        orderedEntries.map { e in
            BeaconReading(
                time: e.time, address: addresses[Int(e.address)], rssi: e.rssi, filtered: Double(e.filtered),
                distance: e.distance.isNaN ? nil : Double(e.distance))
        }
    }

    /// The readings at or after `time`, oldest first.
    public func readings(since time: Double) -> [BeaconReading] { readings.filter { $0.time >= time } }

    /// Every address the beacon was heard from, in the order first heard.
    public var addressesSeen: [BluetoothAddress] { addresses }
}

/// CSV of readings (docs/beacon-page.md): `time_utc,address,rssi,rssi_filtered,distance_m,proximity`, RFC 4180
/// (CRLF line ends, fields quoted only when they must be), ISO 8601 UTC times with milliseconds, `.` as the decimal
/// mark whatever the locale (numbers are formatted here, never by printf).
public enum ReadingCSV {
    public static let columns = ["time_utc", "address", "rssi", "rssi_filtered", "distance_m", "proximity"]

    /// The header line, with `extra` columns after the six.
    public static func header(extra: [String] = []) -> String { line(columns + extra) }

    /// One reading's line; `epoch` is added to the reading's time to make it seconds since 1970, UTC.
    public static func row(_ r: BeaconReading, epoch: Double = 0, extra: [String] = []) -> String {
        line(
            [
                Fechahora.format(secondsSince1970: r.time + epoch), r.address.description, String(r.rssi),
                decimal(r.filtered, 2), r.distance.map { decimal($0, 3) } ?? "", r.proximity.rawValue,
            ] + extra)
    }

    /// Fields joined by commas; a field holding a comma, a quote, CR or LF is quoted, its quotes doubled.
    public static func line(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" })
                ? "\"" + field.replacing("\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\r\n"
    }

    /// `value` with exactly `digits` decimals and a `.`, computed in integers (no locale can change it).
    public static func decimal(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(Int64(value)) }
        let whole = Int64(scaled) / Int64(scale)
        let fraction = Int64(scaled) % Int64(scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let text = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }
}
