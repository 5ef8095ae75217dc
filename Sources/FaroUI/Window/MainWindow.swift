internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The main window (`Resources/ui/window.ui`): a header bar with the page switcher, the search button and the
/// primary menu, the search bar over the lists, the "Beacons" page, "Guardados", "Lugares visitados" and the
/// content view, the outbox line, the offline line and a status line.
@MainActor
final class MainWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let beacons = BeaconListPage()
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let outboxBar: UnsafeMutablePointer<GtkWidget>
    private let outboxLabel: UnsafeMutablePointer<GtkWidget>
    private let offlineBar: UnsafeMutablePointer<GtkWidget>
    private let offlineLabel: UnsafeMutablePointer<GtkWidget>
    /// "Retry now" on the outbox line.
    var onRetry: () -> Void = {}
    /// "Details…" on the outbox line (the pending and failed rows).
    var onOutboxDetails: (() -> Void)? {
        didSet { gtk_widget_set_visible(outboxDetails, onOutboxDetails == nil ? 0 : 1) }
    }
    /// "Retry" on the offline line.
    var onReconnect: () -> Void = {}
    /// "Volver" from the page shown (its back button, Alt+Left or Escape: MainWindow+Keys.swift).
    var onBack: () -> Void = {}
    private let outboxDetails: UnsafeMutablePointer<GtkWidget>
    private let searchBar: UnsafeMutablePointer<GtkWidget>
    private let searchEntry: UnsafeMutablePointer<GtkWidget>
    private let searchButton: UnsafeMutablePointer<GtkWidget>
    /// The search bar's text changed (a moment after the last key, or at once when it is emptied: Escape empties
    /// and closes the bar).
    var onSearch: (String) -> Void = { _ in }
    /// The pages the search bar filters; on any other (the content view) it is hidden.
    static let searchedPages: Set<String> = ["beacons", "saved", "visits"]

    init(application: UnsafeMutablePointer<GtkApplication>, menu: UnsafeMutablePointer<GMenuModel>) {
        let template = Template("window")
        window = template.widget("window")
        // GtkBuilder sets the template's title before it adds the header bar, and a header bar made the titlebar
        // hands the window its own title (none: its title is the page switcher), so the X title (what a task
        // switcher shows) fell back to the program name. Set it again now that the header bar is in place.
        gtk_window_set_title(cast(window), I18n.tr("Faro"))
        gtk_window_set_application(cast(window), application)
        stack = template.widget("stack")
        status = template.widget("status")
        outboxBar = template.widget("outbox-bar")
        outboxLabel = template.widget("outbox-label")
        outboxDetails = template.widget("outbox-details")
        offlineBar = template.widget("offline-bar")
        offlineLabel = template.widget("offline-label")
        searchBar = template.widget("search-bar")
        searchEntry = template.widget("search-entry")
        searchButton = template.widget("search-button")
        gtk_menu_button_set_menu_model(cast(template.widget("menu-button")), menu)
        installKeys(application: application, menuButton: template.widget("menu-button"), stack: stack)
        gtk_stack_add_titled(cast(stack), beacons.root, "beacons", I18n.tr("Beacons"))
        gtk_widget_show_all(beacons.root)
        Signal.connect(template.widget("outbox-retry"), "clicked") { [weak self] in self?.onRetry() }
        Signal.connect(outboxDetails, "clicked") { [weak self] in self?.onOutboxDetails?() }
        Signal.connect(template.widget("offline-retry"), "clicked") { [weak self] in self?.onReconnect() }
        installSearch()
    }

    /// The search bar (docs/beacons.md, "Search"): the header's button and `win.search` (Ctrl+F) open it; Escape in
    /// its entry empties and closes it (GtkSearchBar does both). The text goes to `onSearch`.
    private func installSearch() {
        gtk_search_bar_connect_entry(cast(searchBar), cast(searchEntry))
        g_object_bind_property(
            UnsafeMutableRawPointer(searchButton), "active", UnsafeMutableRawPointer(searchBar),
            "search-mode-enabled", G_BINDING_BIDIRECTIONAL)
        Signal.connect(searchEntry, "search-changed") { [weak self] in
            guard let self, let text = gtk_entry_get_text(cast(self.searchEntry)) else { return }
            self.onSearch(String(cString: text))
        }
        if let action = g_simple_action_new("search", nil) {
            Signal.connect(action, "activate", pointer: { [weak self] _ in self?.openSearch() })
            g_action_map_add_action(OpaquePointer(window), action)
            GObjectSignal.unref(UnsafeMutableRawPointer(action))
        }
        Signal.connect(stack, "notify::visible-child-name", pointer: { [weak self] _ in self?.pageChanged() })
    }

    /// Opens the search bar over the list shown and puts the cursor in it (on the content view: nothing).
    func openSearch() {
        guard let page = visiblePage, MainWindow.searchedPages.contains(page) else { return }
        gtk_search_bar_set_search_mode(cast(searchBar), 1)
        gtk_widget_grab_focus(searchEntry)
    }

    /// The search bar and its button are there over the lists only.
    private func pageChanged() {
        let searched = visiblePage.map(MainWindow.searchedPages.contains) ?? false
        gtk_widget_set_visible(searchBar, searched ? 1 : 0)
        gtk_widget_set_sensitive(searchButton, searched ? 1 : 0)
    }

    /// The outbox line ("2 envíos pendientes" + Retry now); hidden when nothing waits.
    func setOutboxStatus(_ text: String?) {
        if let text {
            gtk_label_set_text(cast(outboxLabel), text)
            gtk_widget_show(outboxBar)
        } else {
            gtk_widget_hide(outboxBar)
        }
    }

    /// The offline line ("Sin conexión con el servidor…" + Retry); hidden while the backend answers.
    func setOfflineStatus(_ text: String?) {
        if let text {
            gtk_label_set_text(cast(offlineLabel), text)
            gtk_widget_show(offlineBar)
        } else {
            gtk_widget_hide(offlineBar)
        }
    }

    /// Adds a page to the switcher (Guardados, and later ones).
    func addPage(_ widget: UnsafeMutablePointer<GtkWidget>, name: String, title: String) {
        gtk_stack_add_titled(cast(stack), widget, name, title)
        gtk_widget_show_all(widget)
    }

    /// Adds a page that the switcher does not list (the content view, reached from a row).
    func addHiddenPage(_ widget: UnsafeMutablePointer<GtkWidget>, name: String) {
        gtk_stack_add_named(cast(stack), widget, name)
        gtk_widget_show_all(widget)
    }

    /// Shows a page by name ("beacons", "saved").
    func showPage(_ name: String) {
        gtk_stack_set_visible_child_name(cast(stack), name)
    }

    /// The name of the page shown ("beacons", "saved", "visits", "site").
    var visiblePage: String? {
        gtk_stack_get_visible_child_name(cast(stack)).map { String(cString: $0) }
    }

    /// The status line under the pages; hidden when empty.
    func setStatus(_ text: String?) {
        if let text, !text.isEmpty {
            gtk_label_set_text(cast(status), text)
            gtk_widget_show(status)
        } else {
            gtk_widget_hide(status)
        }
    }

    func present() { gtk_window_present(cast(window)) }
}
