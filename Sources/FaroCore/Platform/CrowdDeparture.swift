/// When a crowd has left: the number of beacons listed fell by at least `minimumDrop` from its highest since the
/// last time, to at most half of it. The memory the crowd's rows used is free by then but lies in holes of the
/// heaps that held it; that is the moment to hand whole free pages back to the system (docs/monitoring.md,
/// "Memory").
public struct CrowdDeparture: Sendable, Equatable {
    public let minimumDrop: Int
    private var peak = 0

    public init(minimumDrop: Int = 64) {
        self.minimumDrop = minimumDrop
    }

    /// Takes the count of beacons still held after a tick; true when a crowd has left, and the count starts again
    /// from there.
    public mutating func observe(listed: Int) -> Bool {
        peak = max(peak, listed)
        guard peak - listed >= minimumDrop, listed * 2 <= peak else { return false }
        peak = listed
        return true
    }
}
