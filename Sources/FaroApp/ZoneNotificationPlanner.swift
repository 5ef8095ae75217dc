import FaroCore

/// What the zone-entry notification should say now. One notification at a time: while it is on screen, new
/// entries are merged into it (updated in place, never stacked).
public struct ZoneNotification: Equatable, Sendable {
    public var title: String
    public var body: String
    /// The places it names, most recent entry first; "Ver sitio" opens the first and "Silenciar este lugar" mutes
    /// it (the latest entry, the one the title names when the notification is about one place).
    public var places: [CatalogPlace]
    /// True when this replaces the notification already shown (same id), false for a new one.
    public var replacesShown: Bool
}

/// Turns region entries into zone notifications: only announced entries (outside the cool-down) of catalogued
/// places, nothing while monitoring is inactive, several entries merged into the one on screen.
public struct ZoneNotificationPlanner: Sendable {
    private var shown: [CatalogPlace] = []
    private var isShowing = false
    private let localize: Localizer

    public init(localize: Localizer) { self.localize = localize }

    /// An entry happened; returns the notification to show or update, or nil when nothing should be shown.
    public mutating func entered(_ event: RegionEvent, place: CatalogPlace?, monitoringActive: Bool)
        -> ZoneNotification?
    {
        guard event.kind == .enter, event.announce, monitoringActive, let place else { return nil }
        let replaces = isShowing
        if !isShowing { shown = [] }
        shown.removeAll { $0.identity == place.identity }
        shown.insert(place, at: 0)
        isShowing = true
        return notification(replaces: replaces)
    }

    /// The user clicked, dismissed, or the server closed the notification: the next entry starts a new one.
    public mutating func closed() {
        isShowing = false
        shown = []
    }

    /// `place` no longer belongs on the notification (it was muted): later updates leave it out.
    public mutating func forget(_ place: CatalogPlace) {
        shown.removeAll { $0.identity == place.identity }
    }

    /// The places on the notification now (for the tray and the window when no notification server exists).
    public var places: [CatalogPlace] { shown }

    private func notification(replaces: Bool) -> ZoneNotification {
        if shown.count == 1, let place = shown.first {
            return ZoneNotification(
                title: localize.format("You are near %@", place.cliente), body: place.titulo,
                places: shown, replacesShown: replaces)
        }
        let names = shown.map(\.cliente).joined(separator: ", ")
        return ZoneNotification(
            title: localize.plural("You are near %@ place", "You are near %@ places", shown.count), body: names,
            places: shown, replacesShown: replaces)
    }
}
