import FaroTestSupport
import Foundation
import Testing

/// Search in the Spanish window (docs/beacons.md, "Search"), through real key presses under Xvfb and AT-SPI to read
/// what shows (Tests/UI/search.sh, faro_search.py): Ctrl+F opens the bar; "TONALA" finds "Cine Tonalá"; a place not
/// heard yet says "Sin resultados para «pendulo»" and appears, alone, once heard; major/minor and the UUID find
/// beacons; Escape empties and closes the bar and every row comes back; Guardados and Lugares visitados filter too;
/// every string shown is Spanish.
@Suite("Search in the window", .serialized)
struct SearchTests {
    @Test func searchFiltersEveryListInSpanish() throws {
        let backend = try WindowTests.Backend()
        let data = try TemporaryDirectory("faro-search")
        var env = try data.windowEnvironment(language: "es")
        env["GTK_A11Y"] = "atspi"
        env["FARO_PO"] = Paths.packageRoot + "/po/es.po"
        env["FARO_DATA"] = Paths.data
        env["FARO_LANG"] = "es"
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/search.sh",
            [Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas", backend.url],
            environment: env, timeout: 280)
        let output = r.stdout + r.stderr
        #expect(!r.stdout.contains("FAIL"), "\(output)")
        for step in [
            "search-saved-two-pages", "search-rows-before", "search-ctrl-f-opens", "search-accents",
            "search-no-results", "search-live", "search-identity", "search-escape-restores", "search-saved",
            "search-visits", "search-spanish",
        ] {
            #expect(r.stdout.contains("OK \(step)"), "\(step): \(output)")
        }
    }
}
