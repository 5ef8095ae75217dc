/// Faro's default RSSI filter: a one-dimensional Kalman filter on the signal in dB with a Huber-style gate.
///
/// The state is the RSSI a beacon would show without fading. It may drift (the user walks) at `processNoise`
/// dB²/s; each sample carries `measurementNoise` dB² of shadowing and fading. A sample further than `gate`
/// standard deviations from the prediction is clipped to the gate before it is used, so a single deep fade or
/// reflection cannot yank the estimate, while a real step (the user moved) still gets through in a few samples
/// because the prediction's uncertainty grows with the time since the last sample.
/// Constant work and memory per sample (three numbers, no allocation), unlike a time window of samples.
///
/// The defaults were tuned with `faro-bench distance` on the simulated walkers and on environment 1 of the
/// recorded data, then checked on the held-out environment 2 (see `data/evaluation/README.md`).
public struct KalmanRSSIFilter: RSSIFilter {
    public var processNoise: Double
    public var measurementNoise: Double
    public var gate: Double
    /// A gap between readings longer than this (seconds) is a sparse cadence (docs/calibration.md)...
    public var sparseGap: Double
    /// ...and the signal is then taken to drift this much faster (dB²/s): with one reading every 8–10 s, each
    /// reading must count for more, or a walking user's distance lags by tens of seconds.
    public var sparseProcessNoise: Double
    @usableFromInline var estimate: Double?
    @usableFromInline var variance: Double = 0
    @usableFromInline var lastTime: Double = 0

    public init(
        processNoise: Double = 1.0, measurementNoise: Double = 30, gate: Double = 2.0, sparseGap: Double = 3,
        sparseProcessNoise: Double = 15
    ) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
        self.gate = gate
        self.sparseGap = sparseGap
        self.sparseProcessNoise = sparseProcessNoise
    }

    /// Inlinable: it runs for every advertisement, inside `RangingEngine.observe`.
    @inlinable
    public mutating func add(rssi: Double, at time: Double) {
        guard let x = estimate else {
            estimate = rssi
            variance = measurementNoise
            lastTime = time
            return
        }
        let dt = max(0, time - lastTime)
        lastTime = max(lastTime, time)
        let predicted = variance + (dt > sparseGap ? sparseProcessNoise : processNoise) * dt
        let spread = (predicted + measurementNoise).squareRoot() * gate
        let innovation = min(max(rssi - x, -spread), spread)
        let gain = predicted / (predicted + measurementNoise)
        estimate = x + gain * innovation
        variance = (1 - gain) * predicted
    }

    @inlinable
    public func smoothed(at time: Double) -> Double? { estimate }
}
