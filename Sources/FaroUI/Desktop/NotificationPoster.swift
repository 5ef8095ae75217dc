internal import CNotify
import FaroApp
import FaroCore
import FaroGLib

/// libnotify, used only on the notifications' own thread (`ContextThread`, driven by `ZoneNotifier`): every call
/// that reaches the notification server is a synchronous D-Bus call, which a server that does not answer holds
/// for up to 25 s, and libnotify's "closed" and action callbacks come on the thread that first used it. What the
/// user does with a notification goes back through `report`, on this thread; the caller hops to the main one.
final class NotificationPoster: @unchecked Sendable {
    /// What the notification server said the user did, or could not do.
    enum Event: Sendable {
        /// The default action (a click on the notification).
        case openList
        /// "Ver sitio": open this place's content view.
        case openSite(CatalogPlace)
        /// "Silenciar este lugar": mute this place.
        case mutePlace(CatalogPlace)
        /// The server closed the notification, or the user dismissed it.
        case closed
        /// No notification server could show it (the reason, as GLib gave it).
        case unavailable(String)
    }

    private let appID: String
    private let report: @Sendable (Event) -> Void
    private var current: UnsafeMutablePointer<NotifyNotification>?
    private var currentPlaces: [CatalogPlace] = []

    /// Makes no libnotify call: the first `show` or `announce`, on the thread, initialises it.
    init(appID: String, report: @escaping @Sendable (Event) -> Void) {
        self.appID = appID
        self.report = report
    }

    /// Shows a zone notification, or updates the one shown when `replacesShown` says so.
    func show(_ notification: ZoneNotification) {
        initialise()
        currentPlaces = notification.places
        let n: UnsafeMutablePointer<NotifyNotification>
        if notification.replacesShown, let existing = current {
            notify_notification_update(existing, notification.title, notification.body, appID)
            n = existing
        } else {
            dismissCurrent()
            guard let fresh = notify_notification_new(notification.title, notification.body, appID) else { return }
            n = fresh
            current = fresh
            notify_notification_set_category(n, "device")
            notify_notification_set_urgency(n, NOTIFY_URGENCY_NORMAL)
            notify_notification_set_hint(n, "desktop-entry", g_variant_new_string(appID))
            if serverSupportsActions { addActions(n) }
            GObjectSignal.connect(UnsafeMutableRawPointer(n), "closed") { [weak self] in
                guard let self, self.current == n else { return }
                self.releaseCurrent()
                self.report(.closed)
            }
        }
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(n, &error) == 0 {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no notification server"
            if let error { g_error_free(error) }
            releaseCurrent()
            report(.unavailable(reason))
        }
    }

    /// A one-off notice with no actions, apart from the zone notification (Faro going on with its window closed).
    func announce(title: String, body: String) {
        initialise()
        guard let n = notify_notification_new(title, body, appID) else { return }
        notify_notification_show(n, nil)
        g_object_unref(UnsafeMutableRawPointer(n))
    }

    private func initialise() {
        if notify_is_initted() == 0 { notify_init(appID) }
    }

    /// Whether the running notification server supports actions (clickable notifications).
    private var serverSupportsActions: Bool {
        guard let caps = notify_get_server_caps() else { return false }
        defer { g_list_free_full(caps, g_free) }
        var node: UnsafeMutablePointer<GList>? = caps
        while let n = node {
            if let data = n.pointee.data, String(cString: data.assumingMemoryBound(to: CChar.self)) == "actions" {
                return true
            }
            node = n.pointee.next
        }
        return false
    }

    private func addActions(_ n: UnsafeMutablePointer<NotifyNotification>) {
        typealias Action = GLibClosure<String, Void>
        let callback:
            @convention(c) (
                UnsafeMutablePointer<NotifyNotification>?, UnsafeMutablePointer<CChar>?, UnsafeMutableRawPointer?
            ) -> Void = { _, action, data in
                guard let data, let action else { return }
                Action.call(data, String(cString: action))
            }
        // One box per action, released by libnotify when the notification drops its actions.
        let actions = [
            ("default", I18n.tr("Open")), ("view-site", I18n.tr("View site")),
            ("mute-place", I18n.tr("Mute this place")),
        ]
        for (id, label) in actions {
            let box = Action.retained { [weak self] name in self?.invoked(name) }
            notify_notification_add_action(n, id, label, callback, box, Action.destroyNotify)
        }
    }

    private func invoked(_ action: String) {
        // Both act on the place named first: the latest entry, the only one when the notification is about one.
        if action == "view-site", let first = currentPlaces.first {
            report(.openSite(first))
        } else if action == "mute-place", let first = currentPlaces.first {
            report(.mutePlace(first))
        } else {
            report(.openList)
        }
    }

    private func dismissCurrent() {
        if let n = current { notify_notification_close(n, nil) }
        releaseCurrent()
    }

    private func releaseCurrent() {
        if let n = current { g_object_unref(UnsafeMutableRawPointer(n)) }
        current = nil
    }
}
