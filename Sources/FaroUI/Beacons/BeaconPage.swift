internal import CGtk
import FaroApp
import FaroCore
import FaroGLib
import FoundationEssentials

/// A beacon's page, "Detalles" (`Resources/ui/beacon-page.ui`; docs/beacon-page.md): its identity (each value
/// selectable, so it can be copied), live values, and a chart of the last 5 minutes (raw RSSI points, the filtered
/// line and the distance) drawn with Cairo, redrawn once a second, whose accessible description says the current
/// values. "Exportar CSV…" writes the kept readings beside the chosen name, then renames.
@MainActor
final class BeaconPage {
    let window: UnsafeMutablePointer<GtkWidget>
    private let template: Template
    private let identity: BeaconIdentity
    private let place: CatalogPlace?
    private let monitoring: MonitoringService
    private var details: BeaconDetails?
    private var values: [String: UnsafeMutablePointer<GtkWidget>] = [:]
    private var timer: UInt32 = 0
    private var keepAlive: BeaconPage?
    /// The chart's span, seconds.
    static let span = 300.0
    /// Charts drawn in this process, any page (what `FARO_STALL_PROBE` reports beside its stalls).
    private(set) static var chartsDrawn = 0
    /// "Calibrar a 1 m" was chosen on this page, whose window the dialog belongs to.
    var onCalibrate: (BeaconIdentity, _ page: UnsafeMutablePointer<GtkWidget>) -> Void = { _, _ in }

    init(
        identity: BeaconIdentity, place: CatalogPlace?, parent: UnsafeMutablePointer<GtkWidget>?,
        monitoring: MonitoringService
    ) {
        self.identity = identity
        self.place = place
        self.monitoring = monitoring
        template = Template("beacon-page")
        window = template.widget("window")
        if let parent { gtk_window_set_transient_for(cast(window), cast(parent)) }
        WindowKeys.closesFromKeyboard(window)
        let title =
            place.map { "\($0.titulo) — \($0.cliente)" }
            ?? I18n.localizer.format("Unknown beacon %@", "\(identity.major)/\(identity.minor)")
        gtk_window_set_title(cast(window), I18n.localizer.format("Details: %@", title))
        setAccessibleName(window, I18n.tr("Details"))
        gtk_label_set_markup(cast(template.widget("title")), "<b>" + escapeMarkup(title) + "</b>")
        let identityRows: [(String, String)] = [
            ("uuid", I18n.tr("UUID")), ("major", I18n.tr("Major")), ("minor", I18n.tr("Minor")),
            ("addresses", I18n.tr("Addresses")), ("adapter", I18n.tr("Adapter")),
            ("advertised", I18n.tr("Advertised power")), ("calibrated", I18n.tr("Calibrated power")),
            ("catalog", I18n.tr("Catalog entry")), ("first", I18n.tr("First seen")), ("last", I18n.tr("Last seen")),
        ]
        let liveRows: [(String, String)] = [
            ("rssi", I18n.tr("RSSI")), ("filtered", I18n.tr("Filtered RSSI")), ("distance", I18n.tr("Distance")),
            ("proximity", I18n.tr("Proximity")), ("rate", I18n.tr("Readings per minute")),
            ("age", I18n.tr("Last reading")),
        ]
        addRows(identityRows, to: template.widget("identity"))
        addRows(liveRows, to: template.widget("live"))
        set("uuid", identity.uuid.description)
        set("major", String(identity.major))
        set("minor", String(identity.minor))
        set("catalog", place.map { "\($0.titulo), \($0.cliente), \($0.url)" } ?? I18n.tr("Not in the catalog"))
        let chart = template.widget("chart")
        if let accessible = gtk_widget_get_accessible(chart) {
            atk_object_set_role(accessible, ATK_ROLE_DRAWING_AREA)
            atk_object_set_name(accessible, I18n.tr("Signal of the last 5 minutes"))
        }
        Signal.connect(
            chart, "draw",
            event: { [weak self] cr in
                guard let self, let cr else { return false }
                self.draw(OpaquePointer(cr))
                return true
            })
        FormDialog.nameAfterLabel(template.widget("calibrate"))
        FormDialog.nameAfterLabel(template.widget("export"))
        Signal.connect(template.widget("calibrate"), "clicked") { [weak self] in
            guard let self else { return }
            self.onCalibrate(self.identity, self.window)
        }
        Signal.connect(template.widget("export"), "clicked") { [weak self] in self?.chooseExport() }
        Signal.connect(window, "destroy") { [weak self] () -> Void in
            guard let self else { return }
            if self.timer != 0 { MainThread.cancel(self.timer) }
            self.timer = 0
            self.keepAlive = nil
        }
    }

    func present() {
        keepAlive = self
        gtk_widget_show(window)
        gtk_window_present(cast(window))
        refresh()
        timer = MainThread.every(milliseconds: 1000) { [weak self] in
            self?.refresh()
            return self != nil
        }
    }

    private func addRows(_ rows: [(String, String)], to grid: UnsafeMutablePointer<GtkWidget>) {
        for (i, (key, name)) in rows.enumerated() {
            let label = gtk_label_new(name)!
            gtk_label_set_xalign(cast(label), 0)
            gtk_style_context_add_class(gtk_widget_get_style_context(label), "dim-label")
            let value = gtk_label_new("—")!
            gtk_label_set_xalign(cast(value), 0)
            gtk_label_set_selectable(cast(value), 1)
            gtk_label_set_line_wrap(cast(value), 1)
            gtk_widget_set_hexpand(value, 1)
            setAccessibleName(value, name)
            gtk_grid_attach(cast(grid), label, 0, Int32(i), 1, 1)
            gtk_grid_attach(cast(grid), value, 1, Int32(i), 1, 1)
            values[key] = value
        }
        gtk_widget_show_all(grid)
    }

    private func set(_ key: String, _ text: String) {
        guard let label = values[key] else { return }
        if String(cString: gtk_label_get_text(cast(label))) != text { gtk_label_set_text(cast(label), text) }
        setAccessibleDescription(label, text)
    }

    private func refresh() {
        monitoring.details(of: identity) { [weak self] details in self?.show(details) }
    }

    private func show(_ d: BeaconDetails) {
        details = d
        let readings = d.readings
        let last = readings.last
        let metres = { (x: Double?) in x.map(DistanceText.oneDecimal) ?? "—" }
        set(
            "addresses",
            d.history?.addressesSeen.map(\.description).joined(separator: ", ") ?? d.ranged.map {
                $0.address.description
            } ?? "—")
        set("adapter", PreferencesText.adapterName(monitoring.adapter))
        set("advertised", d.ranged.map { "\($0.measuredPower) dBm" } ?? "—")
        let advertised = d.ranged?.measuredPower ?? 0
        let power = d.calibration.power(for: identity, advertised: advertised)
        set(
            "calibrated",
            d.ranged != nil && power != Double(advertised)
                ? String(cFormat: "%.1f", power) + " dBm" : I18n.tr("Not calibrated"))
        let wallNow = Date().timeIntervalSince1970
        let wall = { (t: Double) in SavedListPage.localDateTime(wallNow - (d.now - t)) }
        set("first", d.ranged.map { wall($0.firstSeen) } ?? "—")
        set("last", d.ranged.map { wall($0.lastSeen) } ?? "—")
        set("rssi", last.map { "\($0.rssi) dBm" } ?? "—")
        set("filtered", last.map { String(cFormat: "%.1f", $0.filtered) + " dBm" } ?? "—")
        set("distance", metres(d.ranged?.distance ?? last?.distance))
        let proximity = BeaconListBuilder.proximityText(d.ranged?.proximity ?? .unknown, localize: I18n.localizer)
        set("proximity", proximity)
        set("rate", String(d.readingsPerMinute(now: d.now)))
        set(
            "age",
            last.map { I18n.localizer.format("%@ s ago", String(Int(max(0, d.now - $0.time).rounded()))) } ?? "—")
        let chart = template.widget("chart")
        let recent = readings.filter { $0.time >= d.now - BeaconPage.span }
        gtk_widget_set_visible(template.widget("no-readings"), recent.isEmpty ? 1 : 0)
        gtk_widget_set_sensitive(template.widget("export"), readings.isEmpty ? 0 : 1)
        let description: String
        if let last {
            description = I18n.localizer.format(
                "RSSI %@ dBm (filtered %@ dBm), distance %@, %@; %@ readings in the last 5 minutes.",
                String(last.rssi), String(cFormat: "%.1f", last.filtered), metres(d.ranged?.distance ?? last.distance),
                proximity, String(recent.count))
        } else {
            description = I18n.tr("No readings yet")
        }
        setAccessibleDescription(chart, description)
        gtk_widget_queue_draw(chart)
    }

    // MARK: chart

    private func draw(_ cr: OpaquePointer) {
        BeaconPage.chartsDrawn += 1
        let chart = template.widget("chart")
        guard let d = details else { return }
        let readings = d.readings.filter { $0.time >= d.now - BeaconPage.span }
        guard !readings.isEmpty else { return }
        let width = Double(gtk_widget_get_allocated_width(chart))
        let height = Double(gtk_widget_get_allocated_height(chart))
        let left = 48.0
        let right = 48.0
        let top = 10.0
        let bottom = 24.0
        let plotW = max(width - left - right, 10)
        let plotH = max(height - top - bottom, 10)
        var color = GdkRGBA()
        let context = gtk_widget_get_style_context(chart)
        gtk_style_context_get_color(context, gtk_style_context_get_state(context), &color)
        let rssis = readings.map { Double($0.rssi) } + readings.map(\.filtered)
        let lo = ((rssis.min() ?? -100) - 3).rounded(.down)
        let hi = ((rssis.max() ?? -40) + 3).rounded(.up)
        let far = max(5, (readings.compactMap(\.distance).max() ?? 5).rounded(.up))
        func x(_ t: Double) -> Double { left + plotW * (1 - (d.now - t) / BeaconPage.span) }
        func yRSSI(_ v: Double) -> Double { top + plotH * (hi - v) / max(hi - lo, 1) }
        func yDistance(_ v: Double) -> Double { top + plotH * (1 - min(v, far) / far) }
        // Axes and their labels.
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, 0.35)
        cairo_set_line_width(cr, 1)
        cairo_rectangle(cr, left, top, plotW, plotH)
        cairo_stroke(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, 0.9)
        cairo_set_font_size(cr, 10)
        func text(_ s: String, _ px: Double, _ py: Double) {
            cairo_move_to(cr, px, py)
            cairo_show_text(cr, s)
        }
        text(String(Int(hi)), 4, top + 8)
        text(String(Int(lo)), 4, top + plotH)
        text(I18n.tr("dBm"), 4, top + plotH / 2)
        text(String(cFormat: "%.0f m", far), left + plotW + 4, top + 8)
        text("0 m", left + plotW + 4, top + plotH)
        text(I18n.tr("5 min ago"), left, height - 6)
        text(I18n.tr("now"), left + plotW - 20, height - 6)
        // Raw RSSI: points.
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, 0.45)
        for r in readings {
            cairo_arc(cr, x(r.time), yRSSI(Double(r.rssi)), 1.6, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        // Filtered RSSI: a line.
        cairo_set_source_rgba(cr, 0.21, 0.52, 0.89, 1)
        cairo_set_line_width(cr, 2)
        for (i, r) in readings.enumerated() {
            if i == 0 {
                cairo_move_to(cr, x(r.time), yRSSI(r.filtered))
            } else {
                cairo_line_to(cr, x(r.time), yRSSI(r.filtered))
            }
        }
        cairo_stroke(cr)
        // Distance: a line on the right axis.
        cairo_set_source_rgba(cr, 0.9, 0.45, 0.1, 1)
        var started = false
        for r in readings {
            guard let dist = r.distance else { continue }
            if started {
                cairo_line_to(cr, x(r.time), yDistance(dist))
            } else {
                cairo_move_to(cr, x(r.time), yDistance(dist))
            }
            started = true
        }
        cairo_stroke(cr)
    }

    // MARK: export

    private func chooseExport() {
        guard
            let chooser = gtk_file_chooser_native_new(
                I18n.tr("Export readings"), cast(window), GTK_FILE_CHOOSER_ACTION_SAVE, I18n.tr("_Export"),
                I18n.tr("_Cancel"))
        else { return }
        let fileChooser = OpaquePointer(UnsafeMutableRawPointer(chooser))
        gtk_file_chooser_set_do_overwrite_confirmation(fileChooser, 1)
        gtk_file_chooser_set_current_name(fileChooser, "beacon-\(identity.major)-\(identity.minor).csv")
        Signal.connect(
            cast(chooser, to: GObject.self), "response",
            int: { [weak self] response in
                if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_filename(fileChooser) {
                    let path = String(cString: file)
                    g_free(file)
                    self?.export(to: path)
                }
                g_object_unref(UnsafeMutableRawPointer(fileChooser))
            })
        gtk_native_dialog_show(cast(fileChooser, to: GtkNativeDialog.self))
    }

    /// Writes the readings kept now; a folder that cannot be written or a full disk shows the reason, and no
    /// partial file is ever left under the chosen name (it is written beside it, then renamed).
    func export(to path: String) {
        guard let d = details else { return }
        let epoch = Date().timeIntervalSince1970 - d.now
        var text = ReadingCSV.header()
        for r in d.readings { text += ReadingCSV.row(r, epoch: epoch) }
        do throws(FileWriteError) { try AtomicFile.write(Array(text.utf8), to: path) } catch {
            FeedbackDialogs.problem(
                parent: window, title: I18n.tr("The readings were not exported"),
                detail: error.problem.message(I18n.localizer))
        }
    }
}
