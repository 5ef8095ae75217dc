/// Settings of the ranging engine.
public struct RangingConfiguration: Sendable {
    /// A beacon unseen for this long (seconds) leaves the list.
    public var exitPeriod: Double
    /// How many ticks of distance history each beacon keeps (60 at 1 Hz = the last minute).
    public var historyLength: Int
    /// The readings each beacon keeps for its page and its CSV export (docs/beacon-page.md); nil keeps none.
    public var readings: ReadingHistoryLimits?

    public init(
        exitPeriod: Double = RegionMonitorConfiguration.defaultExitPeriod, historyLength: Int = 60,
        readings: ReadingHistoryLimits? = nil
    ) {
        self.exitPeriod = exitPeriod
        self.historyLength = historyLength
        self.readings = readings
    }
}

/// One beacon in range at a tick, as the list shows it.
public struct RangedBeacon: Sendable, Equatable {
    public var identity: BeaconIdentity
    public var measuredPower: Int8
    /// The 1 m power the distance was computed with when a calibration or adapter offset changed it; nil when it
    /// is the advertised one.
    public var calibratedPower: Double? = nil
    /// The address of the latest advertisement (a beacon may rotate addresses).
    public var address: BluetoothAddress
    /// The latest raw RSSI, dBm.
    public var rssi: Int8
    /// The filter's smoothed RSSI, dBm; nil when no usable sample arrived yet.
    public var smoothedRSSI: Double?
    /// Estimated distance in metres; nil when unknown.
    public var distance: Double?
    public var proximity: Proximity
    public var firstSeen: Double
    public var lastSeen: Double
    /// Distance at each of the last ticks, oldest first; NaN where it was unknown.
    public var history: DistanceHistory

    public init(
        identity: BeaconIdentity, measuredPower: Int8, address: BluetoothAddress, rssi: Int8,
        smoothedRSSI: Double?, distance: Double?, proximity: Proximity, firstSeen: Double, lastSeen: Double,
        history: DistanceHistory
    ) {
        self.identity = identity
        self.measuredPower = measuredPower
        self.address = address
        self.rssi = rssi
        self.smoothedRSSI = smoothedRSSI
        self.distance = distance
        self.proximity = proximity
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.history = history
    }
}

/// The beacons in range at one tick, nearest first (unknown distances last).
public struct RangingSnapshot: Sendable, Equatable {
    public var time: Double
    public var beacons: [RangedBeacon]

    public init(time: Double, beacons: [RangedBeacon]) {
        self.time = time
        self.beacons = beacons
    }
}

/// Ranges beacons: keeps per-beacon state, smooths RSSI, estimates distance, and produces one snapshot per tick.
///
/// Time is passed in by the caller (the recording's clock in a replay, a monotonic clock live), so the engine
/// has no clock of its own and replays run as fast as the machine allows. Sendable: the GUI ranges on a worker
/// thread.
public struct RangingEngine<Filter: RSSIFilter>: Sendable {
    public let configuration: RangingConfiguration
    public let strategy: DistanceStrategy<Filter>
    /// The 1 m powers distances are computed with (calibrations and the adapter's offset); takes effect at the
    /// next tick.
    public var calibration = PowerCalibration.none
    /// When set, every usable reading is also appended to `collected` (the terminal's `--csv`); the caller empties it.
    public var collectsReadings = false
    /// The readings collected since the caller last emptied it, with their beacon.
    public var collected: [(identity: BeaconIdentity, reading: BeaconReading)] = []

    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var beacon: RangedBeacon
        @usableFromInline var filter: Filter
        @usableFromInline var readings: ReadingHistory?

        @usableFromInline
        init(beacon: RangedBeacon, filter: Filter, readings: ReadingHistory?) {
            self.beacon = beacon
            self.filter = filter
            self.readings = readings
        }
    }

    @usableFromInline var index: [BeaconIdentity: Int] = [:]
    @usableFromInline var slots: [Slot] = []

    public init(configuration: RangingConfiguration = RangingConfiguration(), strategy: DistanceStrategy<Filter>) {
        self.configuration = configuration
        self.strategy = strategy
    }

    /// How many beacons the engine tracks right now.
    public var count: Int { slots.count }

    /// Records one sighting. RSSI of 127 ("not available") or ≥ 0 keeps the beacon in range but is not averaged.
    /// Inlinable so that callers in other modules get it specialized for their filter (it runs per advertisement).
    @inlinable
    public mutating func observe(_ beacon: IBeacon, address: BluetoothAddress, rssi: Int8, at time: Double) {
        let usable = rssi < 0
        if let i = index[beacon.identity] {
            slots[i].beacon.address = address
            slots[i].beacon.rssi = rssi
            slots[i].beacon.measuredPower = beacon.measuredPower
            if time > slots[i].beacon.lastSeen { slots[i].beacon.lastSeen = time }
            if usable {
                slots[i].filter.add(rssi: Double(rssi), at: time)
                if slots[i].readings != nil || collectsReadings {
                    record(slot: i, address: address, rssi: rssi, at: time)
                }
            }
            return
        }
        var filter = strategy.makeFilter()
        if usable { filter.add(rssi: Double(rssi), at: time) }
        let ranged = RangedBeacon(
            identity: beacon.identity, measuredPower: beacon.measuredPower, address: address,
            rssi: rssi, smoothedRSSI: nil, distance: nil, proximity: .unknown,
            firstSeen: time, lastSeen: time,
            history: DistanceHistory(capacity: configuration.historyLength))
        index[beacon.identity] = slots.count
        slots.append(Slot(beacon: ranged, filter: filter, readings: configuration.readings.map(ReadingHistory.init)))
        if usable, slots[slots.count - 1].readings != nil || collectsReadings {
            record(slot: slots.count - 1, address: address, rssi: rssi, at: time)
        }
    }

    /// Keeps the reading just taken with what the filter and the model now say.
    @usableFromInline
    mutating func record(slot i: Int, address: BluetoothAddress, rssi: Int8, at time: Double) {
        guard let filtered = slots[i].filter.smoothed(at: time) else { return }
        let power = calibration.power(for: slots[i].beacon.identity, advertised: slots[i].beacon.measuredPower)
        let reading = BeaconReading(
            time: time, address: address, rssi: rssi, filtered: filtered,
            distance: strategy.model.distance(rssi: filtered, measuredPower: power))
        slots[i].readings?.append(reading)
        if collectsReadings { collected.append((slots[i].beacon.identity, reading)) }
    }

    /// A beacon's kept readings, oldest first (empty when it is not in range or none are kept).
    public func readings(of identity: BeaconIdentity) -> ReadingHistory? {
        index[identity].flatMap { slots[$0].readings }
    }

    /// Advances to `time`: drops beacons unseen for the exit period, updates every estimate, returns the list.
    /// Inlinable, like `observe`, so that it is specialized for the caller's filter: unspecialized, every slot it
    /// touched went through the generic type's value witnesses and metadata lookups.
    @inlinable
    public mutating func tick(at time: Double) -> RangingSnapshot {
        var i = 0
        while i < slots.count {
            if time - slots[i].beacon.lastSeen > configuration.exitPeriod {
                remove(at: i)
                continue
            }
            let smoothed = slots[i].filter.smoothed(at: time)
            let advertised = slots[i].beacon.measuredPower
            let power = calibration.power(for: slots[i].beacon.identity, advertised: advertised)
            let calibrated = power != Double(advertised)
            let distance = smoothed.flatMap {
                strategy.model.distance(rssi: $0, measuredPower: power)
            }
            slots[i].beacon.calibratedPower = calibrated ? power : nil
            slots[i].beacon.smoothedRSSI = smoothed
            slots[i].beacon.distance = distance
            slots[i].beacon.proximity = Proximity(distance: distance)
            slots[i].beacon.history.append(distance.map { Float($0) } ?? .nan)
            i += 1
        }
        // Sort plain keys, not the beacons: moving a RangedBeacon retains its history buffer. Each key carries its
        // slot, so the sort moves the keys themselves instead of indices into them.
        var keys: [RangingSortKey] = []
        keys.reserveCapacity(slots.count)
        for s in slots.indices {
            keys.append(
                RangingSortKey(
                    distance: slots[s].beacon.distance ?? .infinity, identity: slots[s].beacon.identity, slot: s))
        }
        keys.sort()
        return RangingSnapshot(time: time, beacons: keys.map { slots[$0.slot].beacon })
    }

    @inlinable
    mutating func remove(at i: Int) {
        index[slots[i].beacon.identity] = nil
        let last = slots.count - 1
        if i != last {
            slots.swapAt(i, last)
            index[slots[i].beacon.identity] = i
        }
        slots.removeLast()
    }
}

/// Nearest first (unknown distances sort as infinitely far), ties broken by identity so the order is stable;
/// `slot` only says where the beacon is (identities are unique among the slots, so it never decides the order).
/// Outside `RangingEngine`: a type nested in a generic one has generic metadata, which the sort's comparator
/// looked up on every comparison.
@usableFromInline
struct RangingSortKey: Comparable {
    @usableFromInline var distance: Double
    @usableFromInline var identity: BeaconIdentity
    @usableFromInline var slot: Int

    @inlinable
    init(distance: Double, identity: BeaconIdentity, slot: Int) {
        self.distance = distance
        self.identity = identity
        self.slot = slot
    }

    @inlinable
    static func < (a: RangingSortKey, b: RangingSortKey) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.identity < b.identity
    }

    @inlinable
    static func == (a: RangingSortKey, b: RangingSortKey) -> Bool {
        a.distance == b.distance && a.identity == b.identity
    }
}

/// The last distances of one beacon (one per tick, oldest first; NaN where unknown), for the sparkline.
///
/// A fixed-capacity ring: appending overwrites the oldest value in place, and copies share storage until one of
/// them changes, so a snapshot costs no allocation per beacon.
public struct DistanceHistory: RandomAccessCollection, Equatable, Sendable {
    @usableFromInline var storage: [Float] = []
    @usableFromInline var start = 0
    public let capacity: Int

    public init(capacity: Int) { self.capacity = Swift.max(0, capacity) }

    /// A history holding `values` (the last `capacity` of them), for tests and previews.
    public init(_ values: [Float], capacity: Int? = nil) {
        self.init(capacity: capacity ?? values.count)
        for v in values { append(v) }
    }

    @inlinable
    public mutating func append(_ value: Float) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[start] = value
            start = (start + 1) % capacity
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> Float {
        let i = start + position
        return storage[i < storage.count ? i : i - storage.count]
    }

    /// The values oldest first, as an array: two block copies of the ring's halves (what a list row keeps; going
    /// through the collection's indices copied one value at a time).
    public var values: [Float] {
        var out: [Float] = []
        out.reserveCapacity(storage.count)
        out.append(contentsOf: storage[start...])
        out.append(contentsOf: storage[..<start])
        return out
    }

    public static func == (a: DistanceHistory, b: DistanceHistory) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in x == y || (x.isNaN && y.isNaN) }
    }
}
