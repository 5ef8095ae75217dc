#if canImport(Glibc)
    import Glibc  // pow
#endif

/// Turns a (smoothed) RSSI and the beacon's measured power at 1 m into an estimated distance in metres.
public protocol PathLossModel: Sendable {
    /// The estimated distance in metres, or nil when it cannot be estimated (unknown power or signal).
    func distance(rssi: Double, measuredPower: Double) -> Double?
}

/// AltBeacon's `CurveFittedDistanceCalculator`: `ratio = rssi / txPower`; below 1, `ratio^10`; otherwise
/// `A·ratio^B + C`. The defaults are the coefficients AltBeacon fitted on a Nexus 5.
public struct CurveFittedPathLoss: PathLossModel {
    public var a: Double
    public var b: Double
    public var c: Double

    public init(a: Double = 0.42093, b: Double = 6.9476, c: Double = 0.54992) {
        self.a = a
        self.b = b
        self.c = c
    }

    public func distance(rssi: Double, measuredPower: Double) -> Double? {
        guard rssi < 0, measuredPower < 0 else { return nil }
        let ratio = rssi / measuredPower
        if ratio < 1 { return pow(ratio, 10) }
        return a * pow(ratio, b) + c
    }
}

/// The log-distance path-loss model: `d = 10^((P₁ₘ − rssi) / (10·n))`, with `n` the path-loss exponent
/// (2 in free space, 2–4 indoors).
public struct LogDistancePathLoss: PathLossModel {
    public var exponent: Double

    public init(exponent: Double = 2) { self.exponent = exponent }

    public func distance(rssi: Double, measuredPower: Double) -> Double? {
        guard rssi < 0, measuredPower < 0, exponent > 0 else { return nil }
        return pow(10, (measuredPower - rssi) / (10 * exponent))
    }
}
