internal import CGtk
import FaroApp
import FaroCore
import FoundationEssentials

/// The content view of one place: its microsite loaded fresh, with progress, errors with "Reintentar" (and the
/// saved copy when there is one), and the actions Guardar, Compartir, "Enviar mis datos" and "Calificar sitio".
@MainActor
final class SitePage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let services: any SiteServices
    private let feedback: any SiteFeedback
    private let reader = ReadableTextView()
    private let heading: UnsafeMutablePointer<GtkWidget>
    private let progress: UnsafeMutablePointer<GtkWidget>
    private let errorBox: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private let openSavedButton: UnsafeMutablePointer<GtkWidget>
    private let saveButton: UnsafeMutablePointer<GtkWidget>
    private let shareButton: UnsafeMutablePointer<GtkWidget>
    private let sendButton: UnsafeMutablePointer<GtkWidget>
    private let rateButton: UnsafeMutablePointer<GtkWidget>
    private let notice: UnsafeMutablePointer<GtkWidget>
    private var place: CatalogPlace?
    private var load: (any SiteLoad)?
    private var savedCopy: Int64?
    /// Back to the beacon list.
    var onBack: () -> Void = {}
    /// A saved page should open (from the error box).
    var onOpenSaved: (Int64) -> Void = { _ in }
    /// Guardados changed (a page was saved).
    var onSaved: () -> Void = {}

    init(services: any SiteServices, feedback: any SiteFeedback) {
        self.services = services
        self.feedback = feedback
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)

        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_container_set_border_width(cast(bar), 6)
        let back = gtk_button_new_from_icon_name("go-previous-symbolic", GTK_ICON_SIZE_BUTTON)
        setAccessibleName(back, I18n.tr("Back to the beacons"))
        gtk_widget_set_tooltip_text(back, I18n.tr("Back to the beacons"))
        heading = gtk_label_new(nil)
        gtk_label_set_ellipsize(cast(heading), PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(cast(heading), 0)
        gtk_widget_set_hexpand(heading, 1)
        saveButton = gtk_button_new_with_mnemonic(I18n.tr("_Save page"))
        setAccessibleName(saveButton, I18n.tr("Save page"))
        shareButton = gtk_menu_button_new()
        gtk_button_set_label(cast(shareButton), I18n.tr("Share"))
        setAccessibleName(shareButton, I18n.tr("Share"))
        sendButton = gtk_button_new_with_label(I18n.tr("Send my details"))
        setAccessibleName(sendButton, I18n.tr("Send my details"))
        rateButton = gtk_button_new_with_label(I18n.tr("Rate site"))
        setAccessibleName(rateButton, I18n.tr("Rate site"))
        gtk_box_pack_start(cast(bar), back, 0, 0, 0)
        gtk_box_pack_start(cast(bar), heading, 1, 1, 0)
        for button in [saveButton, shareButton, sendButton, rateButton] {
            gtk_box_pack_start(cast(bar), button, 0, 0, 0)
        }

        progress = gtk_progress_bar_new()
        setAccessibleName(progress, I18n.tr("Loading the site"))
        gtk_widget_set_no_show_all(progress, 1)

        errorBox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_container_set_border_width(cast(errorBox), 12)
        errorLabel = gtk_label_new(nil)
        gtk_label_set_line_wrap(cast(errorLabel), 1)
        gtk_label_set_xalign(cast(errorLabel), 0)
        gtk_widget_set_hexpand(errorLabel, 1)
        let retry = gtk_button_new_with_mnemonic(I18n.tr("_Retry"))
        setAccessibleName(retry, I18n.tr("Retry"))
        openSavedButton = gtk_button_new_with_label(I18n.tr("Open saved copy"))
        setAccessibleName(openSavedButton, I18n.tr("Open saved copy"))
        gtk_box_pack_start(cast(errorBox), errorLabel, 1, 1, 0)
        gtk_box_pack_end(cast(errorBox), retry, 0, 0, 0)
        gtk_box_pack_end(cast(errorBox), openSavedButton, 0, 0, 0)
        gtk_widget_show_all(errorBox)
        gtk_widget_set_no_show_all(errorBox, 1)
        gtk_widget_hide(errorBox)

        notice = gtk_label_new(nil)
        gtk_label_set_xalign(cast(notice), 0)
        gtk_widget_set_margin_start(notice, 12)
        gtk_style_context_add_class(gtk_widget_get_style_context(notice), "dim-label")
        gtk_widget_set_no_show_all(notice, 1)

        let scroller = gtk_scrolled_window_new(nil, nil)
        gtk_scrolled_window_set_policy(cast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_container_add(cast(scroller), reader.widget)
        gtk_widget_set_vexpand(scroller, 1)

        gtk_box_pack_start(cast(root), bar, 0, 0, 0)
        gtk_box_pack_start(cast(root), progress, 0, 0, 0)
        gtk_box_pack_start(cast(root), errorBox, 0, 0, 0)
        gtk_box_pack_start(cast(root), notice, 0, 0, 0)
        gtk_box_pack_start(cast(root), scroller, 1, 1, 0)

        Signal.connect(back, "clicked") { [weak self] in self?.onBack() }
        Signal.connect(retry, "clicked") { [weak self] in self?.reload() }
        Signal.connect(openSavedButton, "clicked") { [weak self] in
            guard let self, let id = self.savedCopy else { return }
            self.onOpenSaved(id)
        }
        Signal.connect(saveButton, "clicked") { [weak self] in self?.savePage() }
        Signal.connect(sendButton, "clicked") { [weak self] in self?.askToSendDetails() }
        Signal.connect(rateButton, "clicked") { [weak self] in self?.askForRating() }
    }

    /// Opens `place`'s microsite: a fresh load every time.
    func open(_ place: CatalogPlace) {
        self.place = place
        gtk_label_set_markup(cast(heading), "<b>" + escapeMarkup(place.titulo) + "</b>  " + escapeMarkup(place.cliente))
        gtk_menu_button_set_popup(
            cast(shareButton),
            ShareMenu.make(
                url: place.url, title: place.titulo, services: services,
                parent: root))
        refreshActions()
        reload()
    }

    /// Shows a saved page (offline): no network, no actions that need the site.
    func showSaved(_ site: LoadedSite, title: String) {
        load?.cancel()
        place = nil
        gtk_label_set_markup(
            cast(heading), "<b>" + escapeMarkup(title) + "</b>  " + escapeMarkup(I18n.tr("(saved copy)")))
        gtk_widget_hide(progress)
        gtk_widget_hide(errorBox)
        for button in [saveButton, shareButton, sendButton, rateButton] { gtk_widget_hide(button) }
        reader.show(site.document) { site.images[$0] }
    }

    /// Leaving the page cancels a load in flight.
    func leave() { load?.cancel() }

    private func reload() {
        guard let place else { return }
        load?.cancel()
        gtk_widget_hide(errorBox)
        gtk_widget_hide(notice)
        gtk_progress_bar_set_fraction(cast(progress), 0)
        gtk_widget_show(progress)
        for button in [saveButton, shareButton] { gtk_widget_show(button) }
        load = services.load(
            place.url,
            progress: { [weak self] fraction in
                guard let self else { return }
                if let fraction {
                    gtk_progress_bar_set_fraction(cast(self.progress), fraction)
                } else {
                    gtk_progress_bar_pulse(cast(self.progress))
                }
            },
            completion: { [weak self] result in
                guard let self, self.place?.url == place.url else { return }
                gtk_widget_hide(self.progress)
                switch result {
                case .success(let site):
                    self.reader.show(site.document) { site.images[$0] }
                    if !DeviceIDURL.mayCarryDeviceID(place.url) {
                        self.say(I18n.tr("This page is shown without the device id because it is not https."))
                    }
                case .failure(let error):
                    self.reader.show(ReadableDocument(title: nil, blocks: []))
                    self.savedCopy = self.services.savedCopy(of: place.url)
                    let hint = self.savedCopy == nil ? "" : " " + I18n.tr("A saved copy is available.")
                    gtk_label_set_text(
                        cast(self.errorLabel),
                        DeviceIDScrubber.scrub(I18n.tr("The site could not be loaded: ") + error.description + hint))
                    if self.savedCopy == nil {
                        gtk_widget_hide(self.openSavedButton)
                    } else {
                        gtk_widget_show(self.openSavedButton)
                    }
                    gtk_widget_show(self.errorBox)
                }
            })
    }

    /// "Enviar mis datos" only with contact details and only once per site; "Calificar sitio" hidden once rated.
    private func refreshActions() {
        guard let place else { return }
        if feedback.hasContactDetails() {
            gtk_widget_show(sendButton)
            let sent = feedback.contactSent(to: place.url)
            gtk_widget_set_sensitive(sendButton, sent ? 0 : 1)
            gtk_button_set_label(cast(sendButton), sent ? I18n.tr("Details sent") : I18n.tr("Send my details"))
            setAccessibleName(sendButton, sent ? I18n.tr("Details sent") : I18n.tr("Send my details"))
        } else {
            gtk_widget_hide(sendButton)
        }
        if feedback.isRated(place.url) { gtk_widget_hide(rateButton) } else { gtk_widget_show(rateButton) }
    }

    /// The error line, the notice line and the page's text as shown (for tests).
    var shownError: String { gtk_widget_get_visible(errorBox) != 0 ? labelText(errorLabel) : "" }
    var shownNotice: String { gtk_widget_get_visible(notice) != 0 ? labelText(notice) : "" }
    var shownText: String { reader.text }
    /// Whether a load (or its images) is still under way.
    var isLoading: Bool { gtk_widget_get_visible(progress) != 0 || reader.pendingImages > 0 }

    private func labelText(_ label: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_label_get_text(cast(label)).map { String(cString: $0) } ?? ""
    }

    private func say(_ text: String) {
        gtk_label_set_text(cast(notice), text)
        gtk_widget_show(notice)
    }

    private func savePage() {
        guard let place else { return }
        gtk_widget_set_sensitive(saveButton, 0)
        say(I18n.tr("Saving the page and its images…"))
        services.save(place.url, place: place) { [weak self] result in
            guard let self else { return }
            gtk_widget_set_sensitive(self.saveButton, 1)
            switch result {
            case .success:
                self.say(I18n.tr("Saved in Guardados."))
                self.onSaved()
            case .failure(let error):
                self.say(DeviceIDScrubber.scrub(I18n.tr("The page could not be saved: ") + error.description))
            }
        }
    }

    private func askToSendDetails() {
        guard let place else { return }
        FeedbackDialogs.comment(parent: root) { [weak self] comment in
            guard let self else { return nil }
            do {
                try self.feedback.sendContact(to: place, comentario: comment)
            } catch {
                return "\(error)"
            }
            self.refreshActions()
            self.say(I18n.tr("Your details were saved and are sent to the site's authors."))
            return nil
        }
    }

    private func askForRating() {
        guard let place else { return }
        FeedbackDialogs.rating(parent: root) { [weak self] stars in
            guard let self else { return nil }
            do {
                try self.feedback.rate(place, stars: stars)
            } catch {
                return "\(error)"
            }
            self.refreshActions()
            self.say(I18n.localizer.format("Thank you: you rated this site %@ of 5.", String(stars)))
            return nil
        }
    }
}
