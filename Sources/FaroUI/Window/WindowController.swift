internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The main window's lifetime and navigation: created when first shown (and again after it was closed), its
/// pages (Beacons, Guardados, the content view built when a site is first opened), the outbox line, and opening a
/// place, a beacon's place or a saved page.
@MainActor
final class WindowController {
    private(set) var window: MainWindow?
    private var sitePage: SitePage?
    private var savedPage: SavedListPage?
    private var visitsPage: VisitsPage?
    private var lazyPages: [LazyPage] = []
    /// The page the content view was opened from ("beacons", "saved", "visits").
    private var returnPage = "beacons"
    private let application: UnsafeMutablePointer<GtkApplication>
    private let menu: UnsafeMutablePointer<GMenuModel>
    private let environment: GUIEnvironment
    private let monitoring: MonitoringService
    private let listFeed: BeaconListFeed
    /// The user is closing the window (before it goes).
    var onClosing: () -> Void = {}
    /// What the window's search bar holds: every list it filters follows it (docs/beacons.md, "Search").
    private var query = SearchQuery.everything

    init(
        application: UnsafeMutablePointer<GtkApplication>, menu: UnsafeMutablePointer<GMenuModel>,
        environment: GUIEnvironment, monitoring: MonitoringService, listFeed: BeaconListFeed
    ) {
        self.listFeed = listFeed
        self.application = application
        self.menu = menu
        self.environment = environment
        self.monitoring = monitoring
    }

    /// Shows the beacon list, making the window if there is none.
    func showBeacons() {
        if window == nil { window = makeWindow() }
        window?.showPage("beacons")
        window?.present()
    }

    /// Opens a place's microsite in the content view, from a row, a visit or a notification alike; the place's
    /// beacon gives the header its "Detalles".
    func open(_ place: CatalogPlace) {
        if window == nil { window = makeWindow() }
        window?.present()
        guard let sitePage = siteView() else { return }
        showSite()
        sitePage.open(place, beacon: place.beacon)
    }

    /// Shows the content view, remembering the page it was opened from: "Volver" goes back there, and the stack
    /// gives the focus back to what had it on that page (the row that was opened).
    private func showSite() {
        if let page = window?.visiblePage, page != "site" { returnPage = page }
        let back: String
        switch returnPage {
        case "saved": back = I18n.tr("Back to Saved")
        case "visits": back = I18n.tr("Back to Visited places")
        default: back = I18n.tr("Back to the beacons")
        }
        sitePage?.nameBackButton(back)
        window?.showPage("site")
    }

    /// "Volver" from the content view: to the page the site was opened from.
    private func goBack() {
        sitePage?.leave()
        sitePage?.keepFocusInPage()
        window?.showPage(returnPage)
    }

    /// A beacon's page ("Detalles").
    /// The main window keeps the page it shows (a site stays open under the page opened from its header).
    func showDetails(_ identity: BeaconIdentity) {
        if window == nil { window = makeWindow() }
        window?.present()
        let page = BeaconPage(
            identity: identity, place: monitoring.place(for: identity), parent: window?.window, monitoring: monitoring)
        page.onCalibrate = { [weak self] id, pageWindow in self?.calibrate(id, over: pageWindow) }
        page.present()
    }

    /// "Calibrar a 1 m" for a beacon, over the window it was chosen in: a beacon's page (which stays where it is:
    /// the main window is neither shown nor raised), or else the main window (docs/calibration.md).
    func calibrate(_ identity: BeaconIdentity, over page: UnsafeMutablePointer<GtkWidget>? = nil) {
        if page == nil { showBeacons() }
        let title =
            monitoring.place(for: identity).map { "\($0.titulo) — \($0.cliente)" }
            ?? I18n.localizer.format("Unknown beacon %@", "\(identity.major)/\(identity.minor)")
        CalibrationDialog(identity: identity, title: title, parent: page ?? window?.window, monitoring: monitoring)
            .present()
    }

    private func makeWindow() -> MainWindow {
        let w = MainWindow(application: application, menu: menu)
        w.beacons.follow(listFeed)
        w.beacons.onActivate = { [weak self] identity in self?.openSite(identity) }
        w.onBack = { [weak self] in self?.goBack() }
        w.beacons.menuItems = [
            BeaconListPage.MenuItem(label: I18n.tr("Details")) { [weak self] identity in self?.showDetails(identity) },
            BeaconListPage.MenuItem(label: I18n.tr("Calibrate at 1 m…")) { [weak self] identity in
                self?.calibrate(identity)
            },
        ]
        if let services = environment.site {
            // The content view is built when a site is first opened (siteView()), not before the first frame.
            // Guardados and Lugares visitados are built when first shown (LazyPage), not before the first frame.
            let page = LazyPage { [weak self] in
                let saved = SavedListPage(services: services)
                saved.query = self?.query ?? .everything
                saved.onOpen = { [weak self] entry in self?.openSaved(entry.id, title: entry.title) }
                self?.savedPage = saved
                return saved.root
            }
            w.addPage(page.root, name: "saved", title: I18n.tr("Saved"))
            lazyPages.append(page)
        }
        if let history = environment.visitHistory {
            let page = LazyPage { [weak self] in
                let visits = VisitsPage(history: history)
                visits.query = self?.query ?? .everything
                visits.onOpen = { [weak self] place in self?.open(place) }
                self?.visitsPage = visits
                return visits.root
            }
            w.addPage(page.root, name: "visits", title: I18n.tr("Visited places"))
            lazyPages.append(page)
        }
        // Reintentar reads the backend's settings and app key again first: the user may have just fixed them.
        w.onRetry = { [weak self] in
            self?.environment.reloadBackend?()
            self?.environment.outbox?.retryNow()
            self?.environment.connection?.reconnect()
        }
        w.onReconnect = { [weak self] in
            self?.environment.reloadBackend?()
            self?.environment.connection?.reconnect()
            self?.environment.outbox?.retryNow()
        }
        if environment.outbox != nil { w.onOutboxDetails = { [weak self] in self?.showOutboxPanel() } }
        w.onSearch = { [weak self] text in self?.search(SearchQuery(text)) }
        Signal.connect(
            w.window, "delete-event",
            returning: { [weak self] in
                self?.onClosing()
                return false
            })
        Signal.connect(w.window, "destroy") { [weak self] () -> Void in self?.windowDestroyed() }
        TimingReport.attach(w) { [weak self] in self?.visitsPage }
        monitoring.setListWanted(true)
        renderStatus()
        return w
    }

    /// The search bar's text changed: the beacon list is filtered where its rows are built (the session's thread),
    /// Guardados and Lugares visitados before their rows are made.
    private func search(_ query: SearchQuery) {
        guard query != self.query else { return }
        self.query = query
        monitoring.setListQuery(query)
        savedPage?.query = query
        visitsPage?.query = query
    }

    private func windowDestroyed() {
        returnPage = "beacons"
        search(.everything)
        sitePage?.leave()
        sitePage = nil
        savedPage = nil
        visitsPage = nil
        lazyPages = []
        window = nil
        monitoring.setListWanted(false)
    }

    /// The outbox line and the offline line, from the outbox's last pass, the catalog's reachability and the app key.
    func renderStatus() {
        guard let window else { return }
        let state = environment.outbox?.state
        window.setOutboxStatus(state.flatMap { outboxStatusText($0, localize: I18n.localizer) })
        let reachability = environment.connection?.reachability ?? .unknown
        window.setOfflineStatus(
            backendProblemText(
                reachability, outbox: state, appKey: environment.appKeyStatus?.problem, localize: I18n.localizer))
    }

    private func showOutboxPanel() {
        guard let model = environment.outbox?.panel() else { return }
        let panel = OutboxPanel(model: model, parent: window?.window)
        panel.onChange = { [weak self] in self?.renderStatus() }
        panel.present()
    }

    /// The content view, built and added to the window the first time a site is opened.
    private func siteView() -> SitePage? {
        if let sitePage { return sitePage }
        guard let window, let services = environment.site else { return nil }
        let site = SitePage(
            services: services, useCases: environment.useCases, clock: environment.wallClock,
            mutedPlaces: monitoring.mutedPlaces)
        site.onMuted = { [weak self] place in self?.monitoring.placeMuted(place) }
        site.onBack = { [weak self] in self?.goBack() }
        site.onSaved = { [weak self] in self?.savedPage?.reload() }
        site.onDetails = { [weak self] identity in self?.showDetails(identity) }
        site.onOpenSaved = { [weak self] id in self?.openSaved(id, title: nil) }
        window.addHiddenPage(site.root, name: "site")
        sitePage = site
        return site
    }

    /// Opens a beacon's microsite (catalogued beacons only: others have no site).
    private func openSite(_ identity: BeaconIdentity) {
        // A beacon no catalog names has no site: its page opens instead.
        guard let place = monitoring.place(for: identity) else {
            showDetails(identity)
            return
        }
        open(place)
    }

    private func openSaved(_ id: Int64, title: String?) {
        guard let services = environment.site, siteView() != nil else { return }
        services.openSaved(id) { [weak self] result in
            guard let self, let sitePage = self.sitePage else { return }
            switch result {
            case .success(let site):
                let name = title ?? services.savedSites().first { $0.id == id }?.title ?? site.url
                self.showSite()
                sitePage.showSaved(site, title: name)
            case .failure(let error):
                self.window?.setStatus(
                    I18n.tr("The saved page could not be opened: ") + error.problem.message(I18n.localizer))
            }
        }
    }
}
