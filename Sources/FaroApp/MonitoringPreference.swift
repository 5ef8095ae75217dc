import FoundationEssentials

/// Whether background monitoring runs: on, off, or paused until a moment. Persisted as a short string in the
/// settings table so it survives restarts; the window menu and the tray change it through the same value.
public enum MonitoringPreference: Equatable, Sendable {
    case on
    case off
    /// Paused until this many seconds since 1970 (wall-clock time, so a pause survives a restart).
    case paused(until: Double)

    /// Whether the scanner should run at `now` (seconds since 1970). An expired pause counts as on.
    public func isActive(at now: Double) -> Bool {
        switch self {
        case .on: return true
        case .off: return false
        case .paused(let until): return now >= until
        }
    }

    /// The preference as it should be stored after `now`: an expired pause becomes plain "on".
    public func normalized(at now: Double) -> MonitoringPreference {
        if case .paused(let until) = self, now >= until { return .on }
        return self
    }

    /// Paused for one hour from `now`.
    public static func pausedForAnHour(from now: Double) -> MonitoringPreference { .paused(until: now + 3600) }

    /// Paused until the next local midnight after `now` in `timeZone` ("hasta mañana").
    public static func pausedUntilTomorrow(from now: Double, timeZone: TimeZone) -> MonitoringPreference {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = Date(timeIntervalSince1970: now)
        let startOfToday = calendar.startOfDay(for: date)
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: startOfToday) ?? date.addingTimeInterval(86_400)
        return .paused(until: tomorrow.timeIntervalSince1970)
    }

    /// The stored form: `on`, `off` or `paused:<seconds since 1970>`.
    public var storedValue: String {
        switch self {
        case .on: return "on"
        case .off: return "off"
        case .paused(let until): return "paused:\(Int64(until.rounded(.up)))"
        }
    }

    /// Reads the stored form; anything unreadable means on (the default at first launch).
    public init(storedValue: String?) {
        switch storedValue {
        case "off": self = .off
        case let value? where value.hasPrefix("paused:"):
            if let until = Double(value.dropFirst(7)) { self = .paused(until: until) } else { self = .on }
        default: self = .on
        }
    }
}
