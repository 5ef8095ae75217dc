internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The "Beacons" page (`Resources/ui/beacon-list.ui`): the places in range, nearest first, updated in place once a
/// second, with an empty state that says why nothing is listed. Its rows come finished from the session
/// (`BeaconListFeed`, `BeaconRow`). By concern: this file holds the page's state and takes each list;
/// `BeaconListPage+Window.swift` builds and binds the rows near the screen; `BeaconListPage+Input.swift` the
/// pointer, touch and keys (press, long press, menus, the focus, holding still).
@MainActor
final class BeaconListPage {
    // The state the other files of the page share is internal (Swift's `private` ends at the file); only the page
    // itself touches it.

    let root: UnsafeMutablePointer<GtkWidget>
    /// The page's view, kept for the page's lifetime (its builder holds the objects until the window takes them).
    private let template: Template
    let list: UnsafeMutablePointer<GtkWidget>
    /// The spacers above and below the list box: the height of the rows not built.
    let above: UnsafeMutablePointer<GtkWidget>
    let below: UnsafeMutablePointer<GtkWidget>
    private let emptyTitle: UnsafeMutablePointer<GtkWidget>
    private let emptyDetail: UnsafeMutablePointer<GtkWidget>
    private var shownEmptyTitle: String?
    private var shownEmptyDetail: String?
    /// The list's accessible description: the empty state's words while no row is listed (GTK keeps a list box's
    /// placeholder out of the accessibility tree), nothing otherwise.
    private var shownDescription = ""
    /// The last list shown: every row's model and revision.
    var current: BeaconListUpdate?
    /// The beacons listed, top first, in the order shown: the last update's order, or, while the rows hold still,
    /// the order they hold (new beacons at the end, beacons that left still in their places).
    var displayed: [BeaconIdentity] = []
    /// The last row of each beacon that left while the rows hold still, shown until the list takes its order again.
    var departedRows: [BeaconIdentity: (model: BeaconRowModel, revision: UInt64)] = [:]
    // MARK: the rows built (BeaconListPage+Window.swift)

    /// The rows in the list box, top first: `slots[i]` shows `displayed[first + i]` (or is queued to).
    var slots: [BeaconRow] = []
    /// The index in `displayed` of the first row built.
    var first = 0
    /// Rows not in the list box now (the list is shorter than the window), kept to be used again.
    var spare: [BeaconRow] = []
    /// Each row's `BeaconRow`, by its widget.
    var slotOf: [UnsafeMutableRawPointer: BeaconRow] = [:]
    /// The height of one row (every row is one height), once measured.
    var rowHeight = 0.0
    /// The rows of the window still to bind, by index in `slots`, those on screen first (`bindSome`).
    var stale = RowRefreshQueue<Int>()
    var staleQueued = false
    var refreshQueued = false
    /// Rows built at once when the list is not laid out yet (about a screenful: each takes ~0.5 ms of template
    /// building); then, past the rows on screen, `rowsPerBatch` per idle callback.
    static let firstRows = 16
    static let rowsPerBatch = 8
    /// Main-thread time per idle callback for binding the rows around the screen (seconds).
    static let sliceBudget = 0.003
    // MARK: input (BeaconListPage+Input.swift)

    /// Called when the user activates a row (a single click, or Enter on the focused row).
    var onActivate: ((BeaconIdentity) -> Void)?
    /// One entry of a row's context menu (right click, the Menu key, Shift+F10).
    struct MenuItem {
        var label: String
        var action: @MainActor (BeaconIdentity) -> Void
    }
    /// The rows' context menu.
    var menuItems: [MenuItem] = []
    /// The menu on screen (kept until it is hidden).
    var shownMenu: UnsafeMutablePointer<GtkWidget>?
    /// Whether the pointer is over the list: rows then keep their places (docs/beacon-page.md).
    var pointerInside = false
    /// Until when (monotonic seconds) rows keep their places after the pointer left.
    var holdUntil = 0.0
    var releaseTimer: UInt32 = 0
    /// The short grace after the pointer leaves before the list re-sorts.
    static let holdGrace = 0.8
    /// Rows of beacons that left kept at most while the list holds still: past them the list takes its order again
    /// (a pointer left resting on the list while a crowd passes would otherwise keep a row for every beacon gone).
    static let maxHeldDepartedRows = 32

    /// Whether the rows keep their places at this update: while `holding`, unless more than `maxHeldDepartedRows`
    /// rows are of beacons that left.
    static func keepsPlaces(holding: Bool, departedRows: Int) -> Bool {
        holding && departedRows <= maxHeldDepartedRows
    }
    /// The row under the pointer when button 1 went down, and whether GTK activated a row since.
    var pressed: BeaconIdentity?
    var activatedSincePress = false
    /// A long press on a row (touch, or button 1 held) shows the row's context menu, as a right click does. GTK 3
    /// leaves a gesture to whoever made it: the page keeps it for the list's lifetime.
    var longPress: OpaquePointer?
    /// The beacon whose row has (or last had) the keyboard focus, and the selected one: the focus and the selection
    /// stay with their beacon, whichever row shows it.
    var focused: BeaconIdentity?
    var selectedBeacon: BeaconIdentity?
    /// The page itself is moving the focus or the selection (its handlers then take no note of it).
    var steering = false
    /// The row that had the focus inside the list box (GTK's focus child), nil when the focus is elsewhere.
    var focusChild: UnsafeMutableRawPointer?

    init() {
        template = Template("beacon-list")
        root = template.widget("root")
        list = template.widget("list")
        above = template.widget("above")
        below = template.widget("below")
        emptyTitle = template.widget("empty-title")
        emptyDetail = template.widget("empty-detail")
        gtk_list_box_set_placeholder(cast(list), template.widget("placeholder"))
        // A focused row scrolled out of the window is replaced: the list box keeps the focus meanwhile.
        gtk_widget_set_can_focus(list, 1)
        // Scrolling, or a taller window, moves the window of rows built. Deferred to an idle: "changed" comes
        // during size allocation.
        let adjustment = gtk_scrolled_window_get_vadjustment(cast(root))
        Signal.connect(adjustment, "value-changed") { [weak self] in self?.queueRefresh() }
        Signal.connect(adjustment, "changed") { [weak self] in self?.queueRefresh() }
        installInput()
        Relayout.whenShown(list)
    }

    /// Shows every list `feed` publishes, for the page's lifetime.
    func follow(_ feed: BeaconListFeed) {
        feed.observer = { [weak self] update in self?.show(update) }
    }

    /// Shows a new state. Only the rows on screen and a screenful either side are built, from a pool of rows that
    /// are bound to whichever beacon is at their place (`BeaconListPage+Window.swift`): a crowd that comes and goes
    /// leaves no rows built or destroyed behind, and a thousand beacons cost the rows of three screenfuls.
    ///
    /// The update comes finished from the beacon session's `BeaconListBuilder` (ranging, formatting and comparing
    /// rows happen there): a row is current when it shows the beacon at its place at the update's revision. The
    /// rows on screen are brought up to date in this call, and the others in idle callbacks of a few milliseconds.
    func show(_ update: BeaconListUpdate) {
        if update.model.emptyTitle != shownEmptyTitle {
            shownEmptyTitle = update.model.emptyTitle
            gtk_label_set_markup(cast(emptyTitle), "<b>" + escapeMarkup(update.model.emptyTitle) + "</b>")
        }
        if update.model.emptyDetail != shownEmptyDetail {
            shownEmptyDetail = update.model.emptyDetail
            gtk_label_set_text(cast(emptyDetail), update.model.emptyDetail)
        }
        let description = update.order.isEmpty ? update.model.emptyTitle + "\n" + update.model.emptyDetail : ""
        if description != shownDescription {
            shownDescription = description
            setAccessibleDescription(list, description)
        }
        // A new search (docs/beacons.md, "Search") takes effect at once: rows it leaves out go even under the
        // pointer; with the same search, rows hold still as ever.
        let searched = update.query != current?.query
        let departed = displayed.filter { update.positions[$0] == nil }
        let hold = !searched && BeaconListPage.keepsPlaces(holding: holding, departedRows: departed.count)
        if hold {
            // The rows stay where they are; new beacons are added at the end, and a beacon that left keeps its
            // row (showing its last values) until the re-sort.
            for id in departed where departedRows[id] == nil {
                if let row = current?.row(id) { departedRows[id] = row }
            }
            let held = Set(displayed)
            displayed += update.order.filter { !held.contains($0) }
        } else {
            departedRows = [:]
            displayed = update.order
        }
        current = update
        if let selected = selectedBeacon, update.positions[selected] == nil, departedRows[selected] == nil {
            selectedBeacon = nil
        }
        refresh()
    }

    /// A beacon's row as shown: its latest, or its last if it left while the rows hold still.
    func rowModel(_ id: BeaconIdentity) -> (model: BeaconRowModel, revision: UInt64)? {
        current?.row(id) ?? departedRows[id]
    }

    /// The beacons listed (built or not).
    var listedRows: Int { displayed.count }

    /// The rows the list box holds (counted by GTK): the rows near the screen, never more than a window's worth.
    var shownRows: Int {
        guard let children = gtk_container_get_children(cast(list)) else { return 0 }
        defer { g_list_free(children) }
        return Int(g_list_length(children))
    }

    /// The identity of the selected row, if any.
    var selected: BeaconIdentity? {
        guard let row = gtk_list_box_get_selected_row(cast(list)) else { return nil }
        return slotOf[UnsafeMutableRawPointer(row)]?.identity
    }

    /// The beacon a row widget shows.
    func identity(of row: UnsafeMutableRawPointer?) -> BeaconIdentity? {
        row.flatMap { slotOf[$0]?.identity }
    }
}
