internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// "Calibrar a 1 m" (`Resources/ui/calibration-dialog.ui`; docs/calibration.md): collects one beacon's readings
/// from the running scanner for about 15 s, and longer (up to a minute) until there are at least 10, shows the
/// measured and advertised power and the distance before and after, and stores the calibration when the user
/// saves it. "Restablecer" returns the beacon to its advertised power.
@MainActor
final class CalibrationDialog {
    let dialog: UnsafeMutablePointer<GtkWidget>
    private let template: Template
    private let monitoring: MonitoringService
    private let identity: BeaconIdentity
    private var sampler: CalibrationSampler
    private var result: CalibrationResult?
    private var timer: UInt32 = 0
    private var elapsed = 0.0
    private var keepAlive: CalibrationDialog?
    /// Seconds of collecting before a result is offered, and the longest wait for enough readings.
    static let collectSeconds = 15.0
    static let longestSeconds = 60.0
    static let tickMilliseconds: UInt32 = 250

    init(
        identity: BeaconIdentity, title: String, parent: UnsafeMutablePointer<GtkWidget>?, monitoring: MonitoringService
    ) {
        self.identity = identity
        self.monitoring = monitoring
        sampler = CalibrationSampler(target: identity)
        template = Template("calibration-dialog")
        dialog = template.widget("dialog")
        if let parent { gtk_window_set_transient_for(cast(dialog), cast(parent)) }
        setAccessibleName(dialog, I18n.tr("Calibrate at 1 m"))
        for id in ["reset", "cancel", "save", "apply-to-adapter"] { FormDialog.nameAfterLabel(template.widget(id)) }
        setAccessibleName(template.widget("progress"), I18n.tr("Readings collected"))
        setAccessibleName(template.widget("result"), I18n.tr("Calibration result"))
        gtk_label_set_text(cast(template.widget("beacon")), title)
        gtk_widget_set_sensitive(
            template.widget("reset"), monitoring.calibrations?.measuredPower(of: identity) != nil ? 1 : 0)
        Signal.connect(template.widget("cancel"), "clicked") { [weak self] in self?.close() }
        Signal.connect(template.widget("save"), "clicked") { [weak self] in self?.save() }
        Signal.connect(template.widget("reset"), "clicked") { [weak self] in self?.resetCalibration() }
        Signal.connect(dialog, "destroy") { [weak self] () -> Void in self?.stop() }
    }

    func present() {
        keepAlive = self
        gtk_window_present(cast(dialog))
        start()
    }

    private func start() {
        monitoring.sightingTap = { [weak self] sighting in self?.sampler.add(sighting) }
        showProgress()
        timer = MainThread.every(milliseconds: CalibrationDialog.tickMilliseconds) { [weak self] in
            self?.tick() ?? false
        }
    }

    private func stop() {
        monitoring.sightingTap = nil
        if timer != 0 { MainThread.cancel(timer) }
        timer = 0
        keepAlive = nil
    }

    private func close() {
        stop()
        gtk_widget_destroy(dialog)
    }

    private func tick() -> Bool {
        elapsed += Double(CalibrationDialog.tickMilliseconds) / 1000
        showProgress()
        if elapsed >= CalibrationDialog.collectSeconds, sampler.hasEnough || elapsed >= CalibrationDialog.longestSeconds
        {
            finish()
            timer = 0
            return false
        }
        return true
    }

    private func showProgress() {
        let progress = template.widget("progress")
        let readings = I18n.localizer.plural("%@ reading", "%@ readings", sampler.readings)
        gtk_progress_bar_set_text(cast(progress), readings)
        let byTime = elapsed / CalibrationDialog.collectSeconds
        let byCount = Double(sampler.readings) / Double(sampler.minimumReadings)
        gtk_progress_bar_set_fraction(cast(progress), min(1, min(byTime, max(byCount, 0))))
        setAccessibleDescription(progress, readings)
    }

    private func finish() {
        monitoring.sightingTap = nil
        let label = template.widget("result")
        do {
            let r = try sampler.result()
            result = r
            gtk_label_set_text(cast(label), CalibrationDialog.describe(r))
            gtk_widget_set_sensitive(template.widget("save"), 1)
            // Saving is then the dialog's default: Enter saves, wherever the focus is.
            gtk_widget_set_can_default(template.widget("save"), 1)
            gtk_widget_grab_default(template.widget("save"))
            gtk_widget_grab_focus(template.widget("save"))
        } catch {
            gtk_label_set_text(cast(label), CalibrationDialog.describe(error))
        }
        gtk_progress_bar_set_fraction(cast(template.widget("progress")), 1)
    }

    private func save() {
        guard let result, let store = monitoring.calibrations else { return }
        let apply = gtk_toggle_button_get_active(cast(template.widget("apply-to-adapter"))) != 0
        do {
            try store.save(result, adapter: monitoring.adapter, applyToAdapter: apply)
        } catch {
            gtk_label_set_text(
                cast(template.widget("result")),
                I18n.tr("The calibration was not saved: ") + error.problem.message(I18n.localizer))
            return
        }
        monitoring.reloadCalibration()
        close()
    }

    private func resetCalibration() {
        do { try monitoring.calibrations?.reset(identity) } catch {
            gtk_label_set_text(
                cast(template.widget("result")),
                I18n.tr("The calibration was not reset: ") + error.problem.message(I18n.localizer))
            return
        }
        monitoring.reloadCalibration()
        gtk_label_set_text(cast(template.widget("result")), I18n.tr("The beacon uses its advertised power again."))
        gtk_widget_set_sensitive(template.widget("reset"), 0)
    }

    static func describe(_ r: CalibrationResult) -> String {
        let metres = { (d: Double?) in d.map { String(cFormat: "%.1f", $0) } ?? "?" }
        return I18n.localizer.format(
            "Measured 1 m power: %@ dBm (advertised: %@ dBm). Distance before: %@ m, after: %@ m.",
            String(cFormat: "%.0f", r.measuredPower), String(r.advertisedPower), metres(r.distanceBefore),
            metres(r.distanceAfter))
    }

    /// A refusal in the user's language, with its numbers and the bound it broke (docs/calibration.md).
    static func describe(_ error: CalibrationError) -> String {
        let one = { (value: Double) in String(cFormat: "%.1f", value) }
        let limits = CalibrationLimits.self
        switch error {
        case .notHeard:
            return I18n.tr("The beacon was not heard. Move closer and try again; nothing was stored.")
        case .tooFewReadings(let found, let needed):
            return I18n.localizer.plural(
                "Only %@ reading in a minute (at least %@ are needed); nothing was stored.",
                "Only %@ readings in a minute (at least %@ are needed); nothing was stored.", found, String(needed))
        case .absurdPower(let power):
            return I18n.localizer.format(
                "The result is not plausible: a 1 m power of %@ dBm is outside %@ to %@ dBm. Nothing was stored.",
                one(power), String(cFormat: "%.0f", limits.power.lowerBound),
                String(cFormat: "%.0f", limits.power.upperBound))
        case .absurdOffset(let offset):
            return I18n.localizer.format(
                "The result is not plausible: it is %@ dB from the advertised power, beyond ±%@ dB. Was the device 1 m away? Nothing was stored.",
                one(offset), String(cFormat: "%.0f", limits.offset))
        case .invalidDistance(let metres):
            return I18n.localizer.format(
                "The distance must be between %@ and %@ m, not %@ m. Nothing was stored.",
                one(limits.distance.lowerBound), String(cFormat: "%.0f", limits.distance.upperBound), one(metres))
        }
    }
}
