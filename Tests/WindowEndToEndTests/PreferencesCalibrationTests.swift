import FaroTestSupport
import Foundation
import Testing

/// Preferences and "Calibrar a 1 m" on the real Spanish window, driven through AT-SPI against the dbusmock
/// bluetoothd and faro-backend (Tests/UI/preferences-calibration.sh, Tests/UI/faro_prefs.py): a `gsettings set`
/// seen live, the controls writing their keys, "Probar conexión" against a backend, a refusing one and one that is
/// down, a calibration collected from the mock's advertisements, stored with the adapter's offset; then the
/// beacon's page (its chart's accessible description, its calibrated power), a CSV exported through the file
/// chooser and read back column by column, an export to a folder that cannot be written refused with the reason,
/// and the page of a beacon never heard saying so. It runs under a real window manager (openbox:
/// Tests/UI/with-display.sh), so the dialogs' transient parents, stacking and focus are a desktop's.
@Suite("Preferences and calibration in the window", .serialized)
struct PreferencesCalibrationTests {
    @Test func preferencesFollowGSettingsAndACalibrationIsStored() throws {
        let backend = try BackendProcess()
        let refusing = try BackendProcess(["--app-key", "secret"])
        let data = try TemporaryDirectory("faro-prefs")
        var env = try data.windowEnvironment(language: "es")
        env["GTK_A11Y"] = "atspi"
        env["FARO_WINDOW_MANAGER"] = "openbox"
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/preferences-calibration.sh",
            [
                Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas", backend.url, refusing.url,
            ], environment: env, timeout: 240)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        for step in [
            "preferences-over-the-main-window", "row-calibration-over-the-main-window", "csv-chooser-over-the-page",
            "gsettings-set-shows-in-preferences", "gsettings-monitoring-shows-in-preferences",
            "preferences-write-the-keys", "every-control-named", "preferences-refuse-plain-http", "probe-connected",
            "probe-refused", "probe-down", "backend-url-stored", "calibration-dialog-says-what-to-do",
            "calibration-result", "calibration-stored-with-the-adapter-offset", "beacon-page-chart",
            "beacon-page-calibrated", "csv-exported", "csv-export-refused-with-the-reason",
            "beacon-page-without-readings", "unknown-beacon-click-opens-its-page", "preferences-spanish",
        ] {
            #expect(r.stdout.contains("OK \(step)"), "\(step): \(r.stdout)")
        }
    }
}
