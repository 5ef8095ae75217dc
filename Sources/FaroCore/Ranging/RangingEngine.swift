/// Settings of the ranging engine.
public struct RangingConfiguration: Sendable {
    /// A beacon unseen for this long (seconds) leaves the list.
    public var exitPeriod: Double
    /// How many ticks of distance history each beacon keeps (60 at 1 Hz = the last minute).
    public var historyLength: Int

    public init(exitPeriod: Double = 30, historyLength: Int = 60) {
        self.exitPeriod = exitPeriod
        self.historyLength = historyLength
    }
}

/// One beacon in range at a tick, as the list shows it.
public struct RangedBeacon: Sendable, Equatable {
    public var identity: BeaconIdentity
    public var measuredPower: Int8
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
    public var history: [Float]
}

/// The beacons in range at one tick, nearest first (unknown distances last).
public struct RangingSnapshot: Sendable, Equatable {
    public var time: Double
    public var beacons: [RangedBeacon]
}

/// Ranges beacons: keeps per-beacon state, smooths RSSI, estimates distance, and produces one snapshot per tick.
///
/// Time is passed in by the caller (the recording's clock in a replay, a monotonic clock live), so the engine
/// has no clock of its own and replays run as fast as the machine allows.
public struct RangingEngine<Filter: RSSIFilter> {
    public let configuration: RangingConfiguration
    public let strategy: DistanceStrategy<Filter>

    struct Slot {
        var beacon: RangedBeacon
        var filter: Filter
        var history: HistoryRing
    }

    private var index: [BeaconIdentity: Int] = [:]
    private var slots: [Slot] = []

    public init(configuration: RangingConfiguration = RangingConfiguration(), strategy: DistanceStrategy<Filter>) {
        self.configuration = configuration
        self.strategy = strategy
    }

    /// How many beacons the engine tracks right now.
    public var count: Int { slots.count }

    /// Records one sighting. RSSI of 127 ("not available") or ≥ 0 keeps the beacon in range but is not averaged.
    public mutating func observe(_ beacon: IBeacon, address: BluetoothAddress, rssi: Int8, at time: Double) {
        let usable = rssi < 0
        if let i = index[beacon.identity] {
            slots[i].beacon.address = address
            slots[i].beacon.rssi = rssi
            slots[i].beacon.measuredPower = beacon.measuredPower
            if time > slots[i].beacon.lastSeen { slots[i].beacon.lastSeen = time }
            if usable { slots[i].filter.add(rssi: Double(rssi), at: time) }
            return
        }
        var filter = strategy.makeFilter()
        if usable { filter.add(rssi: Double(rssi), at: time) }
        let ranged = RangedBeacon(identity: beacon.identity, measuredPower: beacon.measuredPower, address: address,
                                  rssi: rssi, smoothedRSSI: nil, distance: nil, proximity: .unknown,
                                  firstSeen: time, lastSeen: time, history: [])
        index[beacon.identity] = slots.count
        slots.append(Slot(beacon: ranged, filter: filter, history: HistoryRing(capacity: configuration.historyLength)))
    }

    /// Advances to `time`: drops beacons unseen for the exit period, updates every estimate, returns the list.
    public mutating func tick(at time: Double) -> RangingSnapshot {
        var i = 0
        while i < slots.count {
            if time - slots[i].beacon.lastSeen > configuration.exitPeriod {
                remove(at: i)
                continue
            }
            let smoothed = slots[i].filter.smoothed(at: time)
            let distance = smoothed.flatMap {
                strategy.model.distance(rssi: $0, measuredPower: Double(slots[i].beacon.measuredPower))
            }
            slots[i].beacon.smoothedRSSI = smoothed
            slots[i].beacon.distance = distance
            slots[i].beacon.proximity = Proximity(distance: distance)
            slots[i].history.append(distance.map { Float($0) } ?? .nan)
            i += 1
        }
        var beacons = slots.map { slot -> RangedBeacon in
            var b = slot.beacon
            b.history = slot.history.values
            return b
        }
        beacons.sort(by: RangingEngine.nearerFirst)
        return RangingSnapshot(time: time, beacons: beacons)
    }

    /// Nearest first; beacons of unknown distance last; ties broken by identity so the order is stable.
    static func nearerFirst(_ a: RangedBeacon, _ b: RangedBeacon) -> Bool {
        switch (a.distance, b.distance) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.identity < b.identity
        }
    }

    private mutating func remove(at i: Int) {
        index[slots[i].beacon.identity] = nil
        let last = slots.count - 1
        if i != last {
            slots.swapAt(i, last)
            index[slots[i].beacon.identity] = i
        }
        slots.removeLast()
    }
}

/// A fixed-size ring of the last distances, for the sparkline.
struct HistoryRing {
    private var storage: [Float] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = max(0, capacity) }

    mutating func append(_ value: Float) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[next] = value
            next = (next + 1) % capacity
        }
    }

    /// Oldest first.
    var values: [Float] { Array(storage[next...] + storage[..<next]) }
}
