import FaroTestSupport
import Foundation
import Testing

/// A beacon's page ("Detalles") from the entry points beside the row's right click (docs/beacon-page.md), on the
/// real Spanish window against the dbusmock bluetoothd and faro-backend (Tests/UI/beacon-page-entries.sh): a long
/// press with a real pointer shows the row's menu, which stays open and whose "Detalles" opens the page; the header
/// of a site opened from the row has "Detalles", which opens the same beacon's page.
@Suite("Beacon page entry points", .serialized)
struct BeaconPageEntriesTests {
    @Test func longPressAndSiteHeaderOpenTheBeaconsPage() throws {
        let backend = try BackendProcess()
        let data = try TemporaryDirectory("faro-entries")
        var env = try data.windowEnvironment(language: "es")
        env["GTK_A11Y"] = "atspi"
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/beacon-page-entries.sh",
            [Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas", backend.url],
            environment: env, timeout: 200)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        for step in [
            "long-press-shows-the-row-menu", "long-press-menu-opens-the-page", "site-header-details-button-named",
            "site-header-opens-the-page", "long-press-drag-release-opens-the-page",
        ] {
            #expect(r.stdout.contains("OK \(step)"), "\(step): \(r.stdout)")
        }
    }
}
