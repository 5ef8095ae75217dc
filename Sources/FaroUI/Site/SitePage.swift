internal import CGtk
import FaroApp
import FaroCore
import FaroGLib
import FoundationEssentials

/// The content view of one place: its microsite loaded fresh, with progress, errors with "Reintentar" (and the
/// saved copy when there is one), and the actions Guardar, Compartir, "Enviar mis datos", "Calificar sitio" and
/// "Silenciar avisos de este lugar" ("Volver a avisarme" once muted; it follows a change made elsewhere).
@MainActor
final class SitePage {
    let root: UnsafeMutablePointer<GtkWidget>
    /// The page's view (`Resources/ui/site-page.ui`), kept as long as the page.
    private let template: Template
    private let services: any SiteServices
    private let useCases: FaroUseCases
    private let openSite: OpenSite
    private let savePageNow: SavePage
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
    private let detailsButton: UnsafeMutablePointer<GtkWidget>
    /// "Silenciar avisos de este lugar" (`MuteToggle.swift`).
    private let mute: MuteToggle
    private let notice: UnsafeMutablePointer<GtkWidget>
    private let javaScriptBox: UnsafeMutablePointer<GtkWidget>
    /// The address "Abrir en el navegador" opens: the page's, without the device id.
    private var browserURL: String?
    private var place: CatalogPlace?
    /// The beacon of the place shown: "Detalles" opens its page.
    private var beacon: BeaconIdentity?
    private var load: (any SiteLoad)?
    private var savedCopy: Int64?
    /// Back to the beacon list.
    var onBack: () -> Void = {}
    /// A saved page should open (from the error box).
    var onOpenSaved: (Int64) -> Void = { _ in }
    /// Guardados changed (a page was saved).
    var onSaved: () -> Void = {}
    /// "Detalles": the page of the place's beacon.
    var onDetails: (BeaconIdentity) -> Void = { _ in }
    /// The place was muted here (the notification on screen stops naming it).
    var onMuted: (CatalogPlace) -> Void {
        get { mute.onMuted }
        set { mute.onMuted = newValue }
    }

    init(
        services: any SiteServices, useCases: FaroUseCases, clock: @escaping @Sendable () -> Double,
        mutedPlaces: MutedPlaces? = nil
    ) {
        self.services = services
        self.useCases = useCases
        openSite = OpenSite(services: services)
        savePageNow = SavePage(services: services, clock: clock)
        template = Template("site-page")
        root = template.widget("root")
        heading = template.widget("heading")
        saveButton = template.widget("save")
        shareButton = template.widget("share")
        sendButton = template.widget("send")
        rateButton = template.widget("rate")
        detailsButton = template.widget("details")
        progress = template.widget("progress")
        errorBox = template.widget("error-box")
        errorLabel = template.widget("error-label")
        openSavedButton = template.widget("open-saved")
        notice = template.widget("notice")
        javaScriptBox = template.widget("javascript-box")
        gtk_container_add(cast(template.widget("scroller")), reader.widget)
        mute = MuteToggle(button: template.widget("mute"), mutedPlaces: mutedPlaces)
        let back = template.widget("back")
        let retry = template.widget("retry")

        Signal.connect(back, "clicked") { [weak self] in self?.onBack() }
        Signal.connect(retry, "clicked") { [weak self] in self?.reload() }
        Signal.connect(openSavedButton, "clicked") { [weak self] in
            guard let self, let id = self.savedCopy else { return }
            self.onOpenSaved(id)
        }
        Signal.connect(detailsButton, "clicked") { [weak self] in
            guard let self, let beacon = self.beacon else { return }
            self.onDetails(beacon)
        }
        Signal.connect(saveButton, "clicked") { [weak self] in self?.savePage() }
        Signal.connect(sendButton, "clicked") { [weak self] in self?.askToSendDetails() }
        Signal.connect(rateButton, "clicked") { [weak self] in self?.askForRating() }
        Signal.connect(template.widget("open-browser"), "clicked") { [weak self] in self?.openInBrowser() }
        mute.onSaid = { [weak self] text in self?.say(text) }
    }

    /// Shows `document`, with the line that says it needs JavaScript (and "Abrir en el navegador" for `url`) when it
    /// does: a page that is all script shows that line, never an empty view alone.
    private func show(_ document: ReadableDocument, url: String, images: @escaping (String) -> [UInt8]?) {
        reader.show(document, image: images)
        if document.needsJavaScript != nil {
            browserURL = DeviceIDURL.stripping(from: url)
            gtk_widget_show(javaScriptBox)
        } else {
            browserURL = nil
            gtk_widget_hide(javaScriptBox)
        }
    }

    /// The site in the desktop's browser, without the device id: a browser keeps what it opens in its history,
    /// which Faro cannot clear (docs/reading-pages.md).
    private func openInBrowser() {
        guard let url = browserURL else { return }
        _ = g_app_info_launch_default_for_uri(DeviceIDURL.stripping(from: url), nil, nil)
    }

    /// Opens `place`'s microsite: a fresh load every time. With `beacon` (the place's, once known) the header
    /// offers "Detalles", its page.
    func open(_ place: CatalogPlace, beacon: BeaconIdentity? = nil) {
        self.place = place
        self.beacon = beacon
        gtk_widget_set_visible(detailsButton, beacon == nil ? 0 : 1)
        gtk_label_set_markup(cast(heading), "<b>" + escapeMarkup(place.titulo) + "</b>  " + escapeMarkup(place.cliente))
        // The bar's buttons can squeeze the heading to a word: the whole of it shows on hover.
        gtk_widget_set_tooltip_text(heading, place.titulo + " — " + place.cliente)
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
        beacon = nil
        gtk_widget_hide(detailsButton)
        gtk_label_set_markup(
            cast(heading), "<b>" + escapeMarkup(title) + "</b>  " + escapeMarkup(I18n.tr("(saved copy)")))
        gtk_widget_set_tooltip_text(heading, title + " " + I18n.tr("(saved copy)"))
        gtk_widget_hide(progress)
        gtk_widget_hide(errorBox)
        for button in [saveButton, shareButton, sendButton, rateButton] { gtk_widget_hide(button) }
        mute.show(nil)
        show(site.document, url: site.url) { site.images[$0] }
    }

    /// Names the back button after the page it returns to ("Volver a los beacons", "Volver a Guardados"…).
    func nameBackButton(_ name: String) {
        let back = template.widget("back")
        gtk_widget_set_tooltip_text(back, name)
        setAccessibleName(back, name)
    }

    /// Leaving the page cancels a load in flight.
    func leave() { load?.cancel() }

    private func reload() {
        guard let place else { return }
        load?.cancel()
        gtk_widget_hide(errorBox)
        gtk_widget_hide(notice)
        gtk_widget_hide(javaScriptBox)
        gtk_progress_bar_set_fraction(cast(progress), 0)
        gtk_widget_show(progress)
        for button in [saveButton, shareButton] { gtk_widget_show(button) }
        load = openSite(
            place,
            progress: { [weak self] fraction in
                guard let self else { return }
                if let fraction {
                    gtk_progress_bar_set_fraction(cast(self.progress), fraction)
                } else {
                    gtk_progress_bar_pulse(cast(self.progress))
                }
            },
            completion: { [weak self] outcome in
                guard let self, self.place?.url == place.url else { return }
                gtk_widget_hide(self.progress)
                switch outcome {
                case .loaded(let site):
                    self.show(site.document, url: site.url) { site.images[$0] }
                    if !DeviceIDURL.mayCarryDeviceID(place.url) {
                        self.say(I18n.tr("This page is shown without the device id because it is not https."))
                    }
                case .failed(let error, let savedCopy):
                    self.show(ReadableDocument(title: nil, blocks: []), url: place.url) { _ in nil }
                    self.savedCopy = savedCopy
                    let hint = self.savedCopy == nil ? "" : " " + I18n.tr("A saved copy is available.")
                    gtk_label_set_text(
                        cast(self.errorLabel),
                        I18n.tr("The site could not be loaded: ") + error.problem.message(I18n.localizer) + hint)
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
        if let sent = useCases.sendContactDetails.offer(for: place) {
            gtk_widget_show(sendButton)
            // Once sent the button is disabled: the focus it had moves to the page's text, not to nowhere.
            if sent, gtk_widget_is_focus(sendButton) != 0 { gtk_widget_grab_focus(reader.widget) }
            gtk_widget_set_sensitive(sendButton, sent ? 0 : 1)
            gtk_button_set_label(cast(sendButton), sent ? I18n.tr("Details sent") : I18n.tr("Send my details"))
            setAccessibleName(sendButton, sent ? I18n.tr("Details sent") : I18n.tr("Send my details"))
        } else {
            gtk_widget_hide(sendButton)
        }
        if useCases.rateSite.isOffered(for: place) {
            gtk_widget_show(rateButton)
        } else {
            // The button goes once the site is rated: the focus it had moves to the page's text, not to nowhere.
            if gtk_widget_is_focus(rateButton) != 0 { gtk_widget_grab_focus(reader.widget) }
            gtk_widget_hide(rateButton)
        }
        mute.show(place)
    }

    /// Puts the focus on the back button when nothing in the page has it (a button that had it was hidden), so
    /// that leaving the page gives the focus back to what had it on the page it returns to (GtkStack does that
    /// only when the focus is in the page it leaves).
    func keepFocusInPage() {
        let focus = gtk_widget_get_toplevel(root).flatMap { gtk_window_get_focus(cast($0)) }
        guard focus.map({ gtk_widget_is_ancestor($0, root) != 0 }) != true else { return }
        gtk_widget_grab_focus(template.widget("back"))
    }

    /// The error line, the notice line and the page's text as shown (for tests).
    var shownError: String { gtk_widget_get_visible(errorBox) != 0 ? labelText(errorLabel) : "" }
    var shownNotice: String { gtk_widget_get_visible(notice) != 0 ? labelText(notice) : "" }
    /// The JavaScript line as shown ("" when hidden), and the address its button opens.
    var shownJavaScriptNotice: String {
        gtk_widget_get_visible(javaScriptBox) != 0 ? labelText(template.widget("javascript-label")) : ""
    }
    var javaScriptBrowserURL: String? { browserURL }
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
        // The button is disabled while saving, which takes the focus from it: it gets it back when done.
        let hadFocus = gtk_widget_is_focus(saveButton) != 0
        gtk_widget_set_sensitive(saveButton, 0)
        say(I18n.tr("Saving the page and its images…"))
        savePageNow(place) { [weak self] result in
            guard let self else { return }
            gtk_widget_set_sensitive(self.saveButton, 1)
            if hadFocus, let top = gtk_widget_get_toplevel(self.root), gtk_window_get_focus(cast(top)) == nil,
                gtk_widget_get_mapped(self.saveButton) != 0
            {
                gtk_widget_grab_focus(self.saveButton)
            }
            switch result {
            case .success:
                self.say(I18n.tr("Saved in Guardados."))
                self.onSaved()
            case .failure(let error):
                self.say(I18n.tr("The page could not be saved: ") + error.problem.message(I18n.localizer))
            }
        }
    }

    private func askToSendDetails() {
        guard let place else { return }
        FeedbackDialogs.comment(parent: root) { [weak self] comment in
            guard let self else { return nil }
            do throws(SiteFeedbackError) {
                try self.useCases.sendContactDetails(to: place, comentario: comment)
            } catch {
                return error.message(I18n.localizer)
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
            do throws(SiteFeedbackError) {
                try self.useCases.rateSite(place, stars: stars)
            } catch {
                return error.message(I18n.localizer)
            }
            self.refreshActions()
            self.say(I18n.localizer.format("Thank you: you rated this site %@ of 5.", String(stars)))
            return nil
        }
    }
}
