internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The site page's "Silenciar avisos de este lugar" button, or "Volver a avisarme" when the place is muted: an icon
/// that stays pressed while the place is muted (words would squeeze the page's title out of the bar), named by its
/// tooltip, and following a mute or un-mute made elsewhere (docs/notifications.md).
@MainActor
final class MuteToggle {
    private let button: UnsafeMutablePointer<GtkWidget>
    /// The muted places (nil: the page offers no muting).
    private let mutedPlaces: MutedPlaces?
    private var observation: MutedPlacesObservation?
    /// Set while the toggle itself sets the button's state, so its "toggled" does not mute or un-mute.
    private var showing = false
    private var place: CatalogPlace?
    /// The place was muted here (the notification on screen stops naming it).
    var onMuted: (CatalogPlace) -> Void = { _ in }
    /// A line for the page's notice ("Ya no avisa…", or why the change was not stored).
    var onSaid: (String) -> Void = { _ in }

    init(button: UnsafeMutablePointer<GtkWidget>, mutedPlaces: MutedPlaces?) {
        self.button = button
        self.mutedPlaces = mutedPlaces
        Signal.connect(button, "toggled") { [weak self] in
            guard let self, !self.showing else { return }
            self.toggle()
        }
        observation = mutedPlaces?.observe { [weak self] in
            guard let self else { return }
            self.show(self.place)
        }
    }

    /// Shows the state for `place`; hidden for none (a saved copy) or when the page offers no muting.
    func show(_ place: CatalogPlace?) {
        self.place = place
        guard let place, let mutedPlaces else {
            gtk_widget_hide(button)
            return
        }
        let muted = mutedPlaces.isMuted(place)
        let label = muted ? I18n.tr("Notify me again") : I18n.tr("Mute notifications from this place")
        showing = true
        gtk_toggle_button_set_active(cast(button), muted ? 1 : 0)
        showing = false
        gtk_widget_set_tooltip_text(button, label)
        setAccessibleName(button, label)
        gtk_widget_show(button)
    }

    private func toggle() {
        guard let place, let mutedPlaces else { return }
        let muting = !mutedPlaces.isMuted(place)
        do throws(ProfileStoreError) {
            if muting {
                try mutedPlaces.mute(place)
                onMuted(place)
            } else {
                try mutedPlaces.unmute(place)
            }
        } catch {
            onSaid(I18n.tr("The change was not stored: ") + error.problem.message(I18n.localizer))
            show(place)
            return
        }
        onSaid(
            muting
                ? I18n.tr("Entering this place no longer raises a notification.")
                : I18n.tr("Entering this place raises a notification again."))
    }
}
