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
