/// Which places may raise a zone notification: the `notify-places` setting (docs/notifications.md). Monitoring,
/// the beacon list and visits go on whatever it says; only notifications follow it.
public enum NotifyPlaces: String, CaseIterable, Sendable {
    /// Every catalogued place that is not muted (the default).
    case all
    /// Only places with a page in Guardados (and not muted).
    case saved
    /// No place.
    case none

    /// The setting's stored value; anything else (nil, a value from a newer Faro) reads as `all`.
    public init(storedValue: String?) {
        self = storedValue.flatMap(NotifyPlaces.init(rawValue:)) ?? .all
    }
}

/// Whether a place's zone entry may raise a notification: not when the user muted the place, and only as
/// `notify-places` allows. Pure: the callers look up whether the place is muted and has a saved page.
public enum PlaceNotificationRule {
    public static func mayNotify(setting: NotifyPlaces, muted: Bool, hasSavedPage: Bool) -> Bool {
        guard !muted else { return false }
        switch setting {
        case .all: return true
        case .saved: return hasSavedPage
        case .none: return false
        }
    }
}
