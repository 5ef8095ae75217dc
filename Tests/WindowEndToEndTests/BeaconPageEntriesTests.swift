import FaroTestSupport
import Foundation
import Testing

/// A beacon's page ("Detalles") from the entry points beside the row's right click (docs/beacon-page.md), on the
/// real Spanish window against the dbusmock bluetoothd and faro-backend (Tests/UI/beacon-page-entries.sh): a long
/// press with a real pointer shows the row's menu, which stays open and whose "Detalles" opens the page; the header
/// of a site opened from the row has "Detalles", which opens the same beacon's page. Both walks run under a real
/// window manager (openbox: Tests/UI/with-display.sh), so transient parents, stacking and focus are a desktop's.
@Suite("Beacon page entry points", .serialized)
struct BeaconPageEntriesTests {
    @Test func longPressAndSiteHeaderOpenTheBeaconsPage() throws {
        let backend = try BackendProcess()
        let data = try TemporaryDirectory("faro-entries")
        var env = try data.windowEnvironment(language: "es")
        env["GTK_A11Y"] = "atspi"
        env["FARO_WINDOW_MANAGER"] = "openbox"
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/beacon-page-entries.sh",
            [Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas", backend.url],
            environment: env, timeout: 200)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        for step in [
            "long-press-shows-the-row-menu", "long-press-menu-opens-the-page", "site-header-details-button-named",
            "site-header-opens-the-page", "site-stays-under-its-details-page",
            "long-press-drag-release-opens-the-page",
        ] {
            #expect(r.stdout.contains("OK \(step)"), "\(step): \(r.stdout)")
        }
    }

    /// The demo's desk beacon 7/42 (docs/calibration.md) with a real pointer under openbox
    /// (Tests/UI/beacon-page-desk.sh): its page opens from its row; "Calibrar a 1 m" on the page opens a dialog
    /// transient for the page, which succeeds on the demo's readings and is stored in the demo's profile (`faro
    /// calibrate --list --json`); once it closes the page is the active window above the main window and shows the
    /// calibrated power; "Exportar CSV…" then opens the file chooser over the page, and the CSV is written.
    @Test func theDeskBeaconIsCalibratedAndExportedFromItsPage() throws {
        let data = try TemporaryDirectory("faro-desk")
        var env = try data.windowEnvironment(language: "es")
        env["GTK_A11Y"] = "atspi"
        env["FARO_WINDOW_MANAGER"] = "openbox"
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/beacon-page-desk.sh",
            [Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas"], environment: env, timeout: 240)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        for step in [
            "desk-beacon-listed", "desk-beacon-page-opens-on-top", "calibration-dialog-over-the-page",
            "desk-calibration-result", "page-on-top-after-the-dialog", "desk-calibration-stored",
            "page-shows-the-calibration", "file-chooser-over-the-page", "desk-csv-exported",
        ] {
            #expect(r.stdout.contains("OK \(step)"), "\(step): \(r.stdout)")
        }
    }
}
