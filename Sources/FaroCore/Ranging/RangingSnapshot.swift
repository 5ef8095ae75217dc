/// The beacons in range at one tick, nearest first (unknown distances last).
public struct RangingSnapshot: Sendable, Equatable {
    public var time: Double
    public var beacons: [RangedBeacon]

    public init(time: Double, beacons: [RangedBeacon]) {
        self.time = time
        self.beacons = beacons
    }
}
