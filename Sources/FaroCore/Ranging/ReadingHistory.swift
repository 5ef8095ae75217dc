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
