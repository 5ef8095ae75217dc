internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// "Lugares visitados" (`Resources/ui/visits-page.ui`; docs/visits.md): the visits, newest first, under a heading
/// per day (Hoy, Ayer, then the date in the user's locale), in local time. A click opens the place's site, fresh, as
/// from the beacon list. "Borrar historial" asks first.
@MainActor
final class VisitsPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let template: Template
    private let list: UnsafeMutablePointer<GtkWidget>
    private let history: any VisitHistory
    private var rows: [UnsafeMutablePointer<GtkWidget>] = []
    private var places: [UnsafeMutableRawPointer: CatalogPlace] = [:]
    /// A visit was chosen.
    var onOpen: (CatalogPlace) -> Void = { _ in }
    /// How many visits the page lists (a year of visits is 50,000 rows; the page shows the latest).
    static let shown = 500

    init(history: any VisitHistory) {
        self.history = history
        template = Template("visits-page")
        root = template.widget("root")
        list = template.widget("list")
        gtk_list_box_set_placeholder(cast(list), template.widget("empty"))
        FormDialog.nameAfterLabel(template.widget("clear"))
        Signal.connect(
            list, "row-activated",
            pointer: { [weak self] row in
                guard let self, let row, let place = self.places[row] else { return }
                self.onOpen(place)
            })
        Signal.connect(template.widget("clear"), "clicked") { [weak self] in self?.confirmClear() }
        // Read each time the page is shown: visits are added while the window is elsewhere.
        Signal.connect(root, "map") { [weak self] in self?.reload() }
    }

    func reload() {
        for row in rows { gtk_container_remove(cast(list), row) }
        rows = []
        places = [:]
        var day: String?
        for visit in history.visits(limit: VisitsPage.shown) {
            let heading = VisitsPage.dayHeading(visit.enteredAt)
            if heading != day {
                day = heading
                let label = gtk_label_new(heading)
                gtk_label_set_xalign(cast(label), 0)
                gtk_widget_set_margin_top(label, 12)
                gtk_widget_set_margin_start(label, 8)
                gtk_label_set_markup(cast(label), "<b>" + escapeMarkup(heading) + "</b>")
                let row = gtk_list_box_row_new()!
                gtk_list_box_row_set_activatable(cast(row), 0)
                gtk_list_box_row_set_selectable(cast(row), 0)
                gtk_container_add(cast(row), label)
                setAccessibleName(row, heading)
                add(row)
            }
            let entered = VisitsPage.clock(visit.enteredAt)
            let left = visit.leftAt.map(VisitsPage.clock)
            let when = left.map { "\(entered)–\($0)" } ?? I18n.localizer.format("since %@", entered)
            let closest = visit.closest.map { " · ≈ " + String(cFormat: "%.1f", $0) + " m" } ?? ""
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
            gtk_container_set_border_width(cast(box), 8)
            let title = gtk_label_new(nil)!
            gtk_label_set_markup(cast(title), "<b>" + escapeMarkup(visit.place.titulo) + "</b>")
            gtk_label_set_xalign(cast(title), 0)
            let detail = gtk_label_new("\(visit.place.cliente) · \(when)\(closest)")!
            gtk_label_set_xalign(cast(detail), 0)
            gtk_style_context_add_class(gtk_widget_get_style_context(detail), "dim-label")
            gtk_container_add(cast(box), title)
            gtk_container_add(cast(box), detail)
            let row = gtk_list_box_row_new()!
            gtk_container_add(cast(row), box)
            setAccessibleName(row, "\(visit.place.titulo), \(visit.place.cliente), \(heading) \(when)")
            places[UnsafeMutableRawPointer(row)] = visit.place
            add(row)
        }
        gtk_widget_set_sensitive(template.widget("clear"), rows.isEmpty ? 0 : 1)
        gtk_widget_show_all(list)
    }

    private func add(_ row: UnsafeMutablePointer<GtkWidget>) {
        gtk_container_add(cast(list), row)
        rows.append(row)
    }

    private func confirmClear() {
        let view = Template("confirm-dialog")
        let confirm = view.widget("dialog")
        gtk_window_set_transient_for(cast(confirm), cast(gtk_widget_get_toplevel(root)))
        gtk_window_set_title(cast(confirm), I18n.tr("Clear history"))
        setAccessibleName(confirm, I18n.tr("Clear history"))
        gtk_label_set_text(
            cast(view.widget("question")),
            I18n.tr("Delete every visited place from this device? This cannot be undone."))
        gtk_button_set_label(cast(view.widget("accept")), I18n.tr("_Clear history"))
        for id in ["cancel", "accept"] { FormDialog.nameAfterLabel(view.widget(id)) }
        Signal.connect(
            confirm, "response",
            int: { [weak self] response in
                gtk_widget_destroy(confirm)
                guard let self, response == GTK_RESPONSE_ACCEPT.rawValue else { return }
                do throws(ProfileStoreError) { try self.history.clearVisits() } catch {
                    FeedbackDialogs.problem(
                        parent: self.root, title: I18n.tr("The history was not cleared"), detail: error.description)
                }
                self.reload()
            })
        gtk_window_present(cast(confirm))
    }

    /// "Hoy", "Ayer", or the local date with the locale's month name ("2 dic 2026").
    static func dayHeading(_ seconds: Double) -> String {
        guard let time = g_date_time_new_from_unix_local(gint64(seconds)), let now = g_date_time_new_now_local()
        else { return "" }
        defer {
            g_date_time_unref(time)
            g_date_time_unref(now)
        }
        func day(_ t: OpaquePointer) -> Int {
            Int(g_date_time_get_year(t)) * 1000 + Int(g_date_time_get_day_of_year(t))
        }
        if day(time) == day(now) { return I18n.tr("Today") }
        if let yesterday = g_date_time_add_days(now, -1) {
            defer { g_date_time_unref(yesterday) }
            if day(time) == day(yesterday) { return I18n.tr("Yesterday") }
        }
        guard let text = g_date_time_format(time, "%-d %b %Y") else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The local time of day ("17:40").
    static func clock(_ seconds: Double) -> String {
        guard let time = g_date_time_new_from_unix_local(gint64(seconds)), let text = g_date_time_format(time, "%H:%M")
        else { return "" }
        defer {
            g_free(text)
            g_date_time_unref(time)
        }
        return String(cString: text)
    }
}
