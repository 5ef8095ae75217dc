internal import CGtk
import FaroApp
import FaroCore
import FaroGLib
import FoundationEssentials

/// The "Guardados" page: saved pages (title, business, date saved), opened offline, deleted, exported as `.mht`.
@MainActor
final class SavedListPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let services: any SiteServices
    private var rowIDs: [UnsafeMutableRawPointer: Int64] = [:]
    /// A saved page was chosen.
    var onOpen: (SavedSiteSummary) -> Void = { _ in }
    private var entries: [Int64: SavedSiteSummary] = [:]
    /// Whether the list was read from the store yet: it is read when the page is first shown.
    private var loaded = false

    init(services: any SiteServices) {
        self.services = services
        list = gtk_list_box_new()
        setAccessibleName(list, I18n.tr("Saved pages"))
        gtk_list_box_set_activate_on_single_click(cast(list), 0)
        let empty = gtk_label_new(
            I18n.tr("No saved pages yet. Open a place and choose “Save page” to keep it for offline reading."))
        gtk_label_set_line_wrap(cast(empty), 1)
        gtk_label_set_justify(cast(empty), GTK_JUSTIFY_CENTER)
        gtk_widget_set_margin_start(empty, 24)
        gtk_widget_set_margin_end(empty, 24)
        gtk_style_context_add_class(gtk_widget_get_style_context(empty), "dim-label")
        gtk_widget_show(empty)
        gtk_list_box_set_placeholder(cast(list), empty)
        root = gtk_scrolled_window_new(nil, nil)
        gtk_scrolled_window_set_policy(cast(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_container_add(cast(root), list)
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
        for entry in services.savedSites() {
            entries[entry.id] = entry
            let row: UnsafeMutablePointer<GtkWidget> = gtk_list_box_row_new()
            let grid = gtk_grid_new()
            gtk_grid_set_column_spacing(cast(grid), 8)
            gtk_container_set_border_width(cast(grid), 8)
            let title = gtk_label_new(nil)
            gtk_label_set_markup(cast(title), "<b>" + escapeMarkup(entry.title) + "</b>")
            let when = Self.localDateTime(entry.savedAt)
            let detail = gtk_label_new(entry.business + " · " + when)
            gtk_style_context_add_class(gtk_widget_get_style_context(detail), "dim-label")
            for label in [title, detail] {
                gtk_label_set_xalign(cast(label), 0)
                gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
                gtk_widget_set_hexpand(label, 1)
            }
            let open = gtk_button_new_with_label(I18n.tr("Open"))
            let export = gtk_button_new_with_label(I18n.tr("Export…"))
            let delete = gtk_button_new_from_icon_name("user-trash-symbolic", GTK_ICON_SIZE_BUTTON)
            setAccessibleName(open, I18n.localizer.format("Open %@", entry.title))
            setAccessibleName(export, I18n.localizer.format("Export %@", entry.title))
            setAccessibleName(delete, I18n.localizer.format("Delete %@", entry.title))
            gtk_widget_set_tooltip_text(delete, I18n.tr("Delete"))
            gtk_grid_attach(cast(grid), title, 0, 0, 1, 1)
            gtk_grid_attach(cast(grid), detail, 0, 1, 1, 1)
            gtk_grid_attach(cast(grid), open, 1, 0, 1, 2)
            gtk_grid_attach(cast(grid), export, 2, 0, 1, 2)
            gtk_grid_attach(cast(grid), delete, 3, 0, 1, 2)
            for b in [open, export, delete] { gtk_widget_set_valign(b, GTK_ALIGN_CENTER) }
            gtk_container_add(cast(row), grid)
            setAccessibleName(row, "\(entry.title), \(entry.business), \(when)")
            rowIDs[UnsafeMutableRawPointer(row)] = entry.id
            gtk_container_add(cast(list), row)
            Signal.connect(open, "clicked") { [weak self] in self?.onOpen(entry) }
            Signal.connect(delete, "clicked") { [weak self] () -> Void in
                guard let self else { return }
                do throws(SiteError) { try self.services.deleteSaved(entry.id) } catch {
                    FeedbackDialogs.problem(
                        parent: self.root, title: I18n.tr("The page was not deleted"),
                        detail: error.description)
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
                                detail: error.description)
                        }
                    }
                }
                g_object_unref(UnsafeMutableRawPointer(fileChooser))
            })
        gtk_native_dialog_show(cast(fileChooser, to: GtkNativeDialog.self))
    }
}
