/// The pair of strategies that turns RSSI samples into a distance: a filter (one per beacon) and a path-loss model.
/// Faro's default and AltBeacon's default are both spelled here so the benchmark compares exactly what ships.
public struct DistanceStrategy<Filter: RSSIFilter>: Sendable {
    /// Makes a fresh filter for a newly seen beacon.
    public var makeFilter: @Sendable () -> Filter
    /// Turns the smoothed RSSI into metres.
    public var model: any PathLossModel

    public init(makeFilter: @escaping @Sendable () -> Filter, model: any PathLossModel) {
        self.makeFilter = makeFilter
        self.model = model
    }
}

extension DistanceStrategy where Filter == KalmanRSSIFilter {
    /// Faro's default: Kalman-smoothed RSSI and a log-distance model with an indoor exponent (3.0, tuned on
    /// recorded office data; `faro-bench distance` compares it with AltBeacon's default).
    public static var faroDefault: DistanceStrategy<KalmanRSSIFilter> {
        DistanceStrategy(makeFilter: { KalmanRSSIFilter() }, model: LogDistancePathLoss(exponent: 3.0))
    }
}

extension DistanceStrategy where Filter == RunningAverageRSSIFilter {
    /// AltBeacon's default: 20 s running average and the curve fitted on a Nexus 5.
    public static var altBeacon: DistanceStrategy<RunningAverageRSSIFilter> {
        DistanceStrategy(makeFilter: { RunningAverageRSSIFilter(window: 20) }, model: CurveFittedPathLoss())
    }
}
