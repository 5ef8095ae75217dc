/// Settings of the quiet-scanner watchdog (docs/monitoring.md, "A scanner that goes quiet").
public struct ScanWatchdogConfiguration: Sendable, Equatable {
    /// The shortest silence (seconds) the watchdog acts on, however busy the air was.
    public var minimumSilence: Double
    /// How far back (seconds) from the last reading the recent traffic is judged.
    public var trafficWindow: Double
    /// The readings the traffic window must hold before a silence means anything (an empty room is not a fault).
    public var minimumReadings: Int
    /// A silence longer than this many average gaps between the recent readings is a fault.
    public var gapFactor: Double
    /// Discovery restarts before the adapter is power-cycled (when the user allowed Faro to power it).
    public var restartsBeforePowerCycle: Int
    /// The longest wait (seconds) between two actions: the doubling stops there.
    public var maximumWait: Double

    public init(
        minimumSilence: Double = 60, trafficWindow: Double = 60, minimumReadings: Int = 3, gapFactor: Double = 10,
        restartsBeforePowerCycle: Int = 3, maximumWait: Double = 1800
    ) {
        self.minimumSilence = minimumSilence
        self.trafficWindow = trafficWindow
        self.minimumReadings = minimumReadings
        self.gapFactor = gapFactor
        self.restartsBeforePowerCycle = restartsBeforePowerCycle
        self.maximumWait = maximumWait
    }
}

/// What the watchdog asks the scanner to do.
public enum ScanWatchdogAction: Sendable, Equatable {
    /// Stop discovery and start it again.
    case restartDiscovery
    /// Switch the adapter off and on again (only offered when the user allowed Faro to power it).
    case powerCycle
}

/// Notices a scanner that keeps discovering but hears nothing: after recent traffic (at least `minimumReadings` in
/// the `trafficWindow` before the last reading), a silence of `gapFactor` average gaps (at least `minimumSilence`)
/// asks for a discovery restart; each further action waits twice as long as the one before (up to `maximumWait`),
/// and every `restartsBeforePowerCycle + 1`-th action is a power cycle when allowed. Any reading ends the fault.
/// Pure: the caller passes time in (monotonic seconds) and carries the actions out.
public struct ScanWatchdog: Sendable {
    public let configuration: ScanWatchdogConfiguration
    /// The times of the latest readings, oldest first (at most `maximumKept`).
    private var recent: [Double] = []
    private static let maximumKept = 256
    /// The silence that counts as a fault, fixed at the last reading from the traffic before it.
    private var threshold: Double?
    /// When the silence becomes a fault, or the next action is due (nil without traffic to judge).
    public private(set) var nextActionAt: Double?
    /// Actions taken since the last reading.
    public private(set) var actions = 0
    /// The last reading, if any.
    public private(set) var lastHeard: Double?

    public init(configuration: ScanWatchdogConfiguration = ScanWatchdogConfiguration()) {
        self.configuration = configuration
    }

    /// A reading arrived at `time`: the scanner works.
    public mutating func heard(at time: Double) {
        if let last = lastHeard, time < last { recent.removeAll() }
        lastHeard = time
        actions = 0
        recent.append(time)
        let oldest = time - configuration.trafficWindow
        if let keep = recent.firstIndex(where: { $0 >= oldest }), keep > 0 { recent.removeFirst(keep) }
        if recent.count > ScanWatchdog.maximumKept { recent.removeFirst(recent.count - ScanWatchdog.maximumKept) }
        threshold = silenceThreshold()
        nextActionAt = threshold.map { time + $0 }
    }

    /// Forgets everything (discovery stopped, the machine slept): the next silence is judged on new traffic.
    public mutating func reset() {
        recent.removeAll()
        threshold = nil
        nextActionAt = nil
        actions = 0
        lastHeard = nil
    }

    /// What to do at `time`, if anything; `canPowerCycle` says whether the user allowed Faro to power the adapter.
    public mutating func check(at time: Double, canPowerCycle: Bool) -> ScanWatchdogAction? {
        guard let due = nextActionAt, let threshold, time >= due else { return nil }
        actions += 1
        let doubling = Double(1 << min(actions, 30))
        nextActionAt = time + min(threshold * doubling, configuration.maximumWait)
        let cycle = configuration.restartsBeforePowerCycle + 1
        if canPowerCycle, actions % cycle == 0 { return .powerCycle }
        return .restartDiscovery
    }

    /// Seconds since the last reading while the watchdog is acting on a silence (nil while all is well).
    public func silence(at time: Double) -> Double? {
        guard actions > 0, let lastHeard else { return nil }
        return max(0, time - lastHeard)
    }

    /// `gapFactor` average gaps of the recent traffic, within `minimumSilence`…`maximumWait`; nil without enough
    /// traffic to judge.
    private func silenceThreshold() -> Double? {
        guard recent.count >= max(2, configuration.minimumReadings), let first = recent.first,
            let last = recent.last
        else { return nil }
        let gap = (last - first) / Double(recent.count - 1)
        return min(max(configuration.minimumSilence, gap * configuration.gapFactor), configuration.maximumWait)
    }
}
