/// Where a source's clock stands between sightings. Sightings carry the source's own time (a radio's monotonic
/// clock, or a recording's clock that may run at any speed); ticks happen on the machine's clock. The estimate is
/// the last sighting's time plus the machine time elapsed since it arrived, so a recording's ticks follow the
/// recording and a radio's ticks follow the radio.
public struct SourceClock: Sendable, Equatable {
    private var lastSourceTime: Double?
    private var lastMachineTime = 0.0

    public init() {}

    /// A sighting stamped `sourceTime` arrived at machine time `machineTime`. Time never runs backwards.
    public mutating func heard(sourceTime: Double, at machineTime: Double) {
        lastSourceTime = max(lastSourceTime ?? sourceTime, sourceTime)
        lastMachineTime = machineTime
    }

    /// The source's time at machine time `machineTime`, or 0 before the first sighting.
    public func estimate(at machineTime: Double) -> Double {
        guard let lastSourceTime else { return 0 }
        return lastSourceTime + max(0, machineTime - lastMachineTime)
    }

    /// Forgets the source (a new one starts on its own clock).
    public mutating func reset() { self = SourceClock() }
}
