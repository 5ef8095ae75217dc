internal import CGtk
internal import CNotify
import FaroApp
import FaroCore
import FaroGLib

/// Zone-entry notifications through libnotify: one notification at a time, updated in place when more places are
/// entered, with "open the list" as the default action and "Ver sitio" for the place. Servers without actions
/// still get the text; without any notification server nothing breaks and `onUnavailable` tells the app.
@MainActor
final class ZoneNotifier {
    /// The default action (a click on the notification).
    var onOpenList: () -> Void = {}
    /// "Ver sitio": open this place's content view.
    var onOpenSite: (CatalogPlace) -> Void = { _ in }
    /// The server closed or the user dismissed the notification.
    var onClosed: () -> Void = {}
    /// No notification server could show it; the window shows the entries instead.
    var onUnavailable: (String) -> Void = { _ in }

    private var current: UnsafeMutablePointer<NotifyNotification>?
    private var currentPlaces: [CatalogPlace] = []
    private let appID: String

    init(appID: String) {
        self.appID = appID
        if notify_is_initted() == 0 { notify_init(appID) }
    }

    /// Whether the running notification server supports actions (clickable notifications).
    var serverSupportsActions: Bool {
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

    func show(_ notification: ZoneNotification) {
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
            Signal.connect(cast(n, to: GObject.self), "closed") { [weak self] in
                guard let self, self.current == n else { return }
                self.releaseCurrent()
                self.onClosed()
            }
        }
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(n, &error) == 0 {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no notification server"
            if let error { g_error_free(error) }
            releaseCurrent()
            onUnavailable(reason)
        }
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
        for (id, label) in [("default", I18n.tr("Open")), ("view-site", I18n.tr("View site"))] {
            let box = Action.retained { [weak self] name in MainActor.assumeIsolated { self?.invoked(name) } }
            notify_notification_add_action(n, id, label, callback, box, Action.destroyNotify)
        }
    }

    private func invoked(_ action: String) {
        let places = currentPlaces
        if action == "view-site", let first = places.first { onOpenSite(first) } else { onOpenList() }
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
