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
