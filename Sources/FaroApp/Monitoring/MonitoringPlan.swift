/// What a monitoring preference means at a moment, worked out without touching anything: whether the scanner
/// runs, when a pause ends by itself, and whether Faro stays alive with its window closed. The monitoring service
/// carries it out.
public struct MonitoringPlan: Equatable, Sendable {
    /// The preference as it should be stored (an expired pause is plain "on").
    public var preference: MonitoringPreference
    /// The scanner runs (monitoring on, or a pause that has ended).
    public var scanning: Bool
    /// Seconds from now until the pause ends and monitoring comes back on; nil when there is no pause to end.
    public var resumesIn: Double?
    /// Faro keeps running without its window (monitoring on or paused); off means closing the window quits.
    public var staysInBackground: Bool

    public init(_ preference: MonitoringPreference, at now: Double) {
        self.preference = preference.normalized(at: now)
        scanning = self.preference.isActive(at: now)
        if case .paused(let until) = self.preference, until > now {
            resumesIn = until - now
        } else {
            resumesIn = nil
        }
        staysInBackground = self.preference != .off
    }
}
