import FaroApp
import FaroCore
internal import CGtk
internal import CShim

/// The "Beacons" page: the places in range, nearest first, updated in place once a second, with an empty state
/// that says why nothing is listed.
@MainActor
final class BeaconListPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let emptyTitle: UnsafeMutablePointer<GtkWidget>
    private let emptyDetail: UnsafeMutablePointer<GtkWidget>
    private var rows: [BeaconIdentity: BeaconRow] = [:]
    private var order: [BeaconIdentity: Int] = [:]
    private var rowIdentity: [UnsafeMutableRawPointer: BeaconIdentity] = [:]
    /// Called when the user activates a row (Enter, double click).
    var onActivate: ((BeaconIdentity) -> Void)?

    init() {
        list = gtk_list_box_new()
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(cast(list), 1)
        setAccessibleName(list, I18n.tr("Nearby beacons"))

        let placeholder = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        emptyTitle = gtk_label_new(nil)
        emptyDetail = gtk_label_new(nil)
        gtk_label_set_line_wrap(cast(emptyDetail), 1)
        gtk_label_set_justify(cast(emptyDetail), GTK_JUSTIFY_CENTER)
        gtk_style_context_add_class(gtk_widget_get_style_context(emptyDetail), "dim-label")
        let icon = gtk_image_new_from_icon_name("bluetooth-active-symbolic", GTK_ICON_SIZE_DIALOG)
        gtk_box_pack_start(cast(placeholder), icon, 0, 0, 0)
        gtk_box_pack_start(cast(placeholder), emptyTitle, 0, 0, 0)
        gtk_box_pack_start(cast(placeholder), emptyDetail, 0, 0, 0)
        gtk_widget_set_valign(placeholder, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(placeholder, 24)
        gtk_widget_set_margin_end(placeholder, 24)
        gtk_widget_show_all(placeholder)
        gtk_list_box_set_placeholder(cast(list), placeholder)

        root = gtk_scrolled_window_new(nil, nil)
        gtk_scrolled_window_set_policy(cast(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_container_add(cast(root), list)

        let sort: @convention(c) (UnsafeMutablePointer<GtkListBoxRow>?, UnsafeMutablePointer<GtkListBoxRow>?,
                                  UnsafeMutableRawPointer?) -> Int32 = { a, b, data in
            guard let data, let a, let b else { return 0 }
            let page = Unmanaged<BeaconListPage>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { page.compare(UnsafeMutableRawPointer(a), UnsafeMutableRawPointer(b)) }
        }
        gtk_list_box_set_sort_func(cast(list), sort, Unmanaged.passUnretained(self).toOpaque(), nil)
        Signal.connect(list, "row-activated", pointer: { [weak self] row in
            guard let self, let row, let id = self.rowIdentity[row] else { return }
            self.onActivate?(id)
        })
    }

    private func compare(_ a: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer) -> Int32 {
        let ia = rowIdentity[a].flatMap { order[$0] } ?? Int.max
        let ib = rowIdentity[b].flatMap { order[$0] } ?? Int.max
        return ia < ib ? -1 : ia > ib ? 1 : 0
    }

    /// Shows a new state: rows are added, updated in place, reordered and removed; nothing is rebuilt.
    func show(_ model: BeaconListViewModel) {
        gtk_label_set_markup(cast(emptyTitle), "<b>" + escapeMarkup(model.emptyTitle) + "</b>")
        gtk_label_set_text(cast(emptyDetail), model.emptyDetail)
        var seen = Set<BeaconIdentity>()
        var newOrder: [BeaconIdentity: Int] = [:]
        for (i, rowModel) in model.rows.enumerated() {
            seen.insert(rowModel.identity)
            newOrder[rowModel.identity] = i
            let row: BeaconRow
            if let existing = rows[rowModel.identity] {
                row = existing
            } else {
                row = BeaconRow(identity: rowModel.identity)
                rows[rowModel.identity] = row
                rowIdentity[UnsafeMutableRawPointer(row.row)] = rowModel.identity
                gtk_container_add(cast(list), row.row)
            }
            row.update(rowModel, trendText: BeaconListPage.trend(rowModel.history))
        }
        for (id, row) in rows where !seen.contains(id) {
            rowIdentity[UnsafeMutableRawPointer(row.row)] = nil
            gtk_container_remove(cast(list), row.row)
            rows[id] = nil
        }
        if newOrder != order {
            order = newOrder
            gtk_list_box_invalidate_sort(cast(list))
        }
    }

    /// "Getting closer" / "Moving away" / "Steady" over the last ten seconds of history.
    static func trend(_ history: [Float]) -> String {
        let known = history.suffix(10).filter { $0.isFinite }
        guard let first = known.first, let last = known.last, known.count >= 3 else { return I18n.tr("Steady") }
        if last < first * 0.8 { return I18n.tr("Getting closer") }
        if last > first * 1.25 { return I18n.tr("Moving away") }
        return I18n.tr("Steady")
    }

    /// The identity of the selected row, if any.
    var selected: BeaconIdentity? {
        guard let row = gtk_list_box_get_selected_row(cast(list)) else { return nil }
        return rowIdentity[UnsafeMutableRawPointer(row)]
    }
}
