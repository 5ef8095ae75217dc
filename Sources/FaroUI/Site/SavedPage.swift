internal import CGtk
import FaroApp
import FaroCore
import FaroGLib
import FoundationEssentials

/// The "Guardados" page (`Resources/ui/saved-page.ui`, rows from `saved-row.ui`): saved pages (title, business, date saved), opened offline, deleted, exported as `.mht`.
@MainActor
final class SavedListPage {
    let root: UnsafeMutablePointer<GtkWidget>
    /// The page's view (`Resources/ui/saved-page.ui`), kept as long as the page.
    private let template: Template
    private let list: UnsafeMutablePointer<GtkWidget>
    private let services: any SiteServices
    private var rowIDs: [UnsafeMutableRawPointer: Int64] = [:]
    /// A saved page was chosen.
    var onOpen: (SavedSiteSummary) -> Void = { _ in }
    private var entries: [Int64: SavedSiteSummary] = [:]
    /// Whether the list was read from the store yet: it is read when the page is first shown.
    private var loaded = false
    /// The search bar's text: only the pages that match it are listed (docs/beacons.md, "Search").
    var query = SearchQuery.everything {
        didSet { if loaded, query != oldValue { reload() } }
    }
    /// The empty list's label, and what it says with nothing saved (with a search: "Sin resultados para «…»").
    private let empty: UnsafeMutablePointer<GtkWidget>
    private let nothingSaved: String

    init(services: any SiteServices) {
        self.services = services
        template = Template("saved-page")
        root = template.widget("root")
        list = template.widget("list")
        Relayout.whenShown(list)
        empty = template.widget("empty")
        nothingSaved = gtk_label_get_text(cast(empty)).map { String(cString: $0) } ?? ""
        gtk_list_box_set_placeholder(cast(list), empty)
        Signal.connect(
            list, "row-activated",
            pointer: { [weak self] row in
                guard let self, let row, let id = self.rowIDs[row], let entry = self.entries[id] else { return }
                self.onOpen(entry)
            })
        Signal.connect(root, "map") { [weak self] in
            guard let self, !self.loaded else { return }
            self.reload()
        }
    }

    /// `seconds` since the epoch as a local date and time with the locale's month name ("29 nov 2026, 17:40");
    /// the corresponding C function is `g_date_time_format`.
    static func localDateTime(_ seconds: Double) -> String {
        guard let time = g_date_time_new_from_unix_local(gint64(seconds)) else { return "" }
        defer { g_date_time_unref(time) }
        guard let text = g_date_time_format(time, "%-d %b %Y, %H:%M") else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Rebuilds the list from the store (it changes only when a page is saved, deleted or the page is shown).
    func reload() {
        loaded = true
        for (row, _) in rowIDs { gtk_container_remove(cast(list), row.assumingMemoryBound(to: GtkWidget.self)) }
        rowIDs = [:]
        entries = [:]
        let emptyText = query.isEmpty ? nothingSaved : SearchResults.emptyTexts(query, localize: I18n.localizer).title
        gtk_label_set_text(cast(empty), emptyText)
        let shown = SearchResults.saved(services.savedSites(), matching: query)
        // GTK keeps a list box's placeholder out of the accessibility tree: the list says it in its description.
        setAccessibleDescription(list, shown.isEmpty ? emptyText : "")
        for entry in shown {
            entries[entry.id] = entry
            let view = Template("saved-row")
            let row = view.widget("row")
            let title = view.widget("title")
            gtk_label_set_markup(cast(title), "<b>" + escapeMarkup(entry.title) + "</b>")
            let when = Self.localDateTime(entry.savedAt)
            gtk_label_set_text(cast(view.widget("detail")), entry.business + " · " + when)
            let open = view.widget("open")
            let export = view.widget("export")
            let delete = view.widget("delete")
            setAccessibleName(open, I18n.localizer.format("Open %@", entry.title))
            setAccessibleName(export, I18n.localizer.format("Export %@", entry.title))
            setAccessibleName(delete, I18n.localizer.format("Delete %@", entry.title))
            setAccessibleName(row, "\(entry.title), \(entry.business), \(when)")
            rowIDs[UnsafeMutableRawPointer(row)] = entry.id
            gtk_container_add(cast(list), row)
            Signal.connect(open, "clicked") { [weak self] in self?.onOpen(entry) }
            Signal.connect(delete, "clicked") { [weak self] () -> Void in
                guard let self else { return }
                do throws(SiteError) { try self.services.deleteSaved(entry.id) } catch {
                    FeedbackDialogs.problem(
                        parent: self.root, title: I18n.tr("The page was not deleted"),
                        detail: error.problem.message(I18n.localizer))
                }
                self.reload()
            }
            Signal.connect(export, "clicked") { [weak self] in self?.export(entry) }
        }
        gtk_widget_show_all(list)
    }

    private func export(_ entry: SavedSiteSummary) {
        guard
            let chooser = gtk_file_chooser_native_new(
                I18n.tr("Export saved page"),
                cast(gtk_widget_get_toplevel(root)), GTK_FILE_CHOOSER_ACTION_SAVE,
                I18n.tr("_Export"), I18n.tr("_Cancel"))
        else { return }
        let fileChooser = OpaquePointer(UnsafeMutableRawPointer(chooser))
        gtk_file_chooser_set_do_overwrite_confirmation(fileChooser, 1)
        let safe = entry.title.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        gtk_file_chooser_set_current_name(fileChooser, String(safe) + ".mht")
        Signal.connect(
            cast(chooser, to: GObject.self), "response",
            int: { [weak self] response in
                if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_filename(fileChooser) {
                    let path = String(cString: file)
                    g_free(file)
                    if let self {
                        do throws(SiteError) { try self.services.exportSaved(entry.id, to: path) } catch {
                            FeedbackDialogs.problem(
                                parent: self.root, title: I18n.tr("The page was not exported"),
                                detail: error.problem.message(I18n.localizer))
                        }
                    }
                }
                g_object_unref(UnsafeMutableRawPointer(fileChooser))
            })
        gtk_native_dialog_show(cast(fileChooser, to: GtkNativeDialog.self))
    }
}
