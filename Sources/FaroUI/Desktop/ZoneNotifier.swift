import FaroApp
import FaroCore
import FaroGLib

/// Zone-entry notifications: one notification at a time, updated in place when more places are entered, with
/// "open the list" as the default action, "Ver sitio" for the place and "Silenciar este lugar" to mute it (both
/// act on the latest entry named). Servers without actions still get the text; without any notification server
/// nothing breaks and `onUnavailable` tells the app.
///
/// libnotify's calls wait for the notification server, so they run on a thread of their own (`NotificationPoster`
/// on a `ContextThread`, started at the first notification): a server that does not answer leaves the window
/// answering. While a notification is on its way, newer ones wait here and only the latest is sent after it.
@MainActor
final class ZoneNotifier {
    /// The default action (a click on the notification).
    var onOpenList: () -> Void = {}
    /// "Ver sitio": open this place's content view.
    var onOpenSite: (CatalogPlace) -> Void = { _ in }
    /// "Silenciar este lugar": mute this place (the latest entry the notification names).
    var onMutePlace: (CatalogPlace) -> Void = { _ in }
    /// The server closed or the user dismissed the notification.
    var onClosed: () -> Void = {}
    /// No notification server could show it; the window shows the entries instead.
    var onUnavailable: (String) -> Void = { _ in }

    private let appID: String
    private lazy var thread = ContextThread(name: "faro-notify")
    private lazy var poster = NotificationPoster(appID: appID) { [weak self] event in
        MainThread.run { self?.handle(event) }
    }
    /// A zone notification is being sent (the server has not answered yet).
    private var sending = false
    /// The latest one asked for meanwhile.
    private var waiting: ZoneNotification?

    init(appID: String) {
        self.appID = appID
    }

    func show(_ notification: ZoneNotification) {
        guard !sending else {
            // Only the latest is sent next; it is a new notification if any one skipped was.
            var next = notification
            next.replacesShown = notification.replacesShown && (waiting?.replacesShown ?? true)
            waiting = next
            return
        }
        sending = true
        let poster = poster
        thread.perform { [weak self] in
            poster.show(notification)
            MainThread.run { self?.sent() }
        }
    }

    /// A one-off notice beside the zone notification (Faro going on with its window closed).
    func announce(title: String, body: String) {
        let poster = poster
        thread.perform { poster.announce(title: title, body: body) }
    }

    private func sent() {
        sending = false
        if let next = waiting {
            waiting = nil
            show(next)
        }
    }

    private func handle(_ event: NotificationPoster.Event) {
        switch event {
        case .openList: onOpenList()
        case .openSite(let place): onOpenSite(place)
        case .mutePlace(let place): onMutePlace(place)
        case .closed: onClosed()
        case .unavailable(let reason): onUnavailable(reason)
        }
    }
}
